// A project's statuses (its board's columns), role by role: members read them, admins and owners
// add, change, reorder and delete them, outsiders see nothing; and the database's own rules — names,
// at most 50, a completed status always, tasks only in their own project's statuses, deleting a
// status that holds tasks only with a destination of the same project.
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { crew, defaultStatuses, type Crew, type DefaultStatuses, type Person } from '../support/scene.ts';

interface Board extends Omit<Crew, 'ws'> {
  ws: string;
  project: string;
  statuses: DefaultStatuses;
}

async function board(name = 'Launch'): Promise<Board> {
  const cast = await crew();
  const { data: project, error } = await cast.admin.client
    .from('projects')
    .insert({ workspace_id: cast.ws.id, name })
    .select('id')
    .single();
  if (error) throw error;
  return { ...cast, ws: cast.ws.id, project: project.id, statuses: await defaultStatuses(project.id) };
}

/** The statuses of a second project of the same workspace. */
async function otherProjectStatuses(b: Board): Promise<DefaultStatuses> {
  const { data, error } = await b.admin.client
    .from('projects')
    .insert({ workspace_id: b.ws, name: 'Other' })
    .select('id')
    .single();
  if (error) throw error;
  return defaultStatuses(data.id);
}

async function names(p: Person, project: string) {
  const { data } = await p.client
    .from('project_statuses')
    .select('name, category')
    .eq('project_id', project)
    .order('position');
  return data?.map((s) => `${s.name}:${s.category}`);
}

async function addStatus(p: Person, b: Board, name: string, category = 'started' as const) {
  return p.client
    .from('project_statuses')
    .insert({ workspace_id: b.ws, project_id: b.project, name, category })
    .select('id, name, position')
    .single();
}

describe('project_statuses, role by role', () => {
  let b: Board;
  beforeAll(async () => {
    b = await board();
  });

  it('a new project starts with Backlog, To do, In progress and Done', async () => {
    expect(await names(b.admin, b.project)).toEqual([
      'Backlog:backlog',
      'To do:unstarted',
      'In progress:started',
      'Done:completed',
    ]);
  });

  it('are read by every member (viewers too), and by no outsider or anonymous caller', async () => {
    for (const p of [b.owner, b.admin, b.member, b.viewer]) expect(await names(p, b.project)).toHaveLength(4);
    expect(await names(b.outsider, b.project)).toEqual([]);
    const anon = await anonClient().from('project_statuses').select('id').eq('project_id', b.project);
    expect(anon.data ?? []).toEqual([]);
  });

  it('are added by admins and owners only, last in the order', async () => {
    for (const p of [b.member, b.viewer, b.outsider]) {
      const { error } = await addStatus(p, b, `By ${p.email}`.slice(0, 30));
      expect(error?.code).toBe('42501');
    }
    const byAdmin = await addStatus(b.admin, b, 'In review');
    expect(byAdmin.error).toBeNull();
    const byOwner = await addStatus(b.owner, b, 'Shipped', 'completed' as never);
    expect(byOwner.error).toBeNull();
    expect(Number(byOwner.data?.position)).toBeGreaterThan(Number(byAdmin.data?.position));
    expect((await names(b.viewer, b.project))?.slice(-2)).toEqual(['In review:started', 'Shipped:completed']);
  });

  it('are renamed and recategorized by admins and owners only', async () => {
    for (const p of [b.member, b.viewer, b.outsider]) {
      const { data } = await p.client
        .from('project_statuses')
        .update({ name: 'Hijacked' })
        .eq('id', b.statuses.todo)
        .select('id');
      expect(data ?? []).toEqual([]);
    }
    const renamed = await b.admin.client
      .from('project_statuses')
      .update({ name: 'Ready' })
      .eq('id', b.statuses.todo)
      .select('name');
    expect(renamed.data).toEqual([{ name: 'Ready' }]);
    const back = await b.owner.client
      .from('project_statuses')
      .update({ name: 'To do' })
      .eq('id', b.statuses.todo)
      .select('name');
    expect(back.data).toEqual([{ name: 'To do' }]);
  });

  it('are deleted by admins and owners only', async () => {
    const { data: spare } = await addStatus(b.admin, b, 'Spare');
    for (const p of [b.member, b.viewer, b.outsider]) {
      const { data } = await p.client.from('project_statuses').delete().eq('id', spare?.id).select('id');
      expect(data ?? []).toEqual([]);
      const rpc = await p.client.rpc('delete_project_status', { status_id: spare?.id });
      if (p === b.outsider) expect(rpc.status).toBe(404);
      else expect(rpc.error?.code).toBe('42501');
    }
    const deleted = await b.admin.client.rpc('delete_project_status', { status_id: spare?.id });
    expect(deleted.error).toBeNull();
    const { data: again } = await addStatus(b.owner, b, 'Spare');
    const byOwner = await b.owner.client.from('project_statuses').delete().eq('id', again?.id).select('id');
    expect(byOwner.data).toEqual([{ id: again?.id }]);
  });

  it('are reordered by admins and owners only; anyone else is refused or finds nothing', async () => {
    const by = (p: Person) =>
      p.client.rpc('move_project_status', { status_id: b.statuses.done, direction: 'up' });
    expect((await by(b.member)).error?.code).toBe('42501');
    expect((await by(b.viewer)).error?.code).toBe('42501');
    const outsider = await by(b.outsider);
    expect(outsider.status).toBe(404);
    expect((await anonClient().rpc('move_project_status', { status_id: b.statuses.done })).error?.code).toBe(
      '42501',
    );
  });
});

describe('the rules the database keeps', () => {
  it('refuses empty, long, control-character and duplicate names (in any letter case), by constraint', async () => {
    const b = await board();
    const refusal = async (name: string) => (await addStatus(b.admin, b, name)).error?.message ?? '';
    expect(await refusal('')).toContain('"project_statuses_name_length"');
    expect(await refusal(' Padded ')).toContain('"project_statuses_name_length"');
    expect(await refusal('x'.repeat(31))).toContain('"project_statuses_name_length"');
    expect(await refusal('Bell\u0007')).toContain('"project_statuses_name_characters"');
    expect(await refusal('DONE')).toContain('"project_statuses_name_key"');
    expect((await addStatus(b.admin, b, 'x'.repeat(30))).error).toBeNull();
  });

  it('holds at most 50 statuses in a project', async () => {
    const b = await board();
    for (let i = 5; i <= 50; i++) expect((await addStatus(b.admin, b, `Step ${i}`)).error).toBeNull();
    const { error } = await addStatus(b.admin, b, 'One too many');
    expect(error?.message).toContain('"project_statuses_limit"');
  });

  it('keeps a completed status: the last one cannot be deleted or recategorized', async () => {
    const b = await board();
    const deleted = await b.admin.client.rpc('delete_project_status', { status_id: b.statuses.done });
    expect(deleted.error?.message).toContain('"project_statuses_keep_completed"');
    const recategorized = await b.admin.client
      .from('project_statuses')
      .update({ category: 'started' })
      .eq('id', b.statuses.done);
    expect(recategorized.error?.message).toContain('"project_statuses_keep_completed"');
    // With a second completed status, the first may go.
    await addStatus(b.admin, b, 'Shipped', 'completed' as never);
    expect(
      (await b.admin.client.rpc('delete_project_status', { status_id: b.statuses.done })).error,
    ).toBeNull();
  });

  it('puts a task only in a status of its own project, whoever writes it', async () => {
    const b = await board();
    const foreign = await otherProjectStatuses(b);
    const made = await b.member.client
      .from('tasks')
      .insert({ workspace_id: b.ws, project_id: b.project, title: 'Mine', status_id: foreign.todo })
      .select('id');
    expect(made.error?.message).toContain('"tasks_status_fkey"');
    const { data: task } = await b.member.client
      .from('tasks')
      .insert({ workspace_id: b.ws, project_id: b.project, title: 'Mine' })
      .select('id, status_id')
      .single();
    // Made without a status: the project's first "to do" one.
    expect(task?.status_id).toBe(b.statuses.todo);
    const updated = await b.member.client
      .from('tasks')
      .update({ status_id: foreign.done })
      .eq('id', task?.id);
    expect(updated.error?.message).toContain('"tasks_status_fkey"');
    // move_task answers 404 for a status that is not on the task's board, and for one that is no id at all.
    for (const status_id of [foreign.done, '00000000-0000-4000-8000-000000000000']) {
      const moved = await b.member.client.rpc('move_task', { task_id: task?.id, status_id });
      expect(moved.status).toBe(404);
    }
    const { data: still } = await b.member.client
      .from('tasks')
      .select('status_id')
      .eq('id', task?.id)
      .single();
    expect(still?.status_id).toBe(b.statuses.todo);
  });
});

describe('delete_project_status', () => {
  it('refuses to delete a status that holds tasks without a destination in the same project', async () => {
    const b = await board();
    const foreign = await otherProjectStatuses(b);
    await b.member.client.from('tasks').insert(
      [1, 2, 3].map((n) => ({
        workspace_id: b.ws,
        project_id: b.project,
        title: `T${n}`,
        status_id: b.statuses.in_progress,
      })),
    );
    const none = await b.admin.client.rpc('delete_project_status', { status_id: b.statuses.in_progress });
    expect(none.status).toBe(400);
    expect(none.error?.message).toContain('"project_statuses_destination_required"');
    for (const move_to of [foreign.done, b.statuses.in_progress, '00000000-0000-4000-8000-000000000000']) {
      const forged = await b.admin.client.rpc('delete_project_status', {
        status_id: b.statuses.in_progress,
        move_to,
      });
      expect(forged.status).toBe(400);
      expect(forged.error?.message).toContain('"project_statuses_destination_fkey"');
    }
    // Nothing moved, nothing deleted.
    const { count } = await b.member.client
      .from('tasks')
      .select('id', { count: 'exact', head: true })
      .eq('status_id', b.statuses.in_progress);
    expect(count).toBe(3);
  });

  it('moves its tasks to the destination (last, in their order) and deletes it, in one transaction', async () => {
    const b = await board();
    const insert = (title: string, status_id: string) =>
      b.member.client.from('tasks').insert({ workspace_id: b.ws, project_id: b.project, title, status_id });
    await insert('Already done', b.statuses.done);
    await insert('First', b.statuses.in_progress);
    await insert('Second', b.statuses.in_progress);
    const { error } = await b.admin.client.rpc('delete_project_status', {
      status_id: b.statuses.in_progress,
      move_to: b.statuses.done,
    });
    expect(error).toBeNull();
    const { data } = await b.member.client
      .from('tasks')
      .select('title')
      .eq('status_id', b.statuses.done)
      .order('position');
    expect(data?.map((t) => t.title)).toEqual(['Already done', 'First', 'Second']);
    expect(await names(b.member, b.project)).toEqual([
      'Backlog:backlog',
      'To do:unstarted',
      'Done:completed',
    ]);
  });
});

describe('move_project_status', () => {
  it('moves a status one step, or to a place, clamped to the ends', async () => {
    const b = await board();
    const order = async () => (await names(b.member, b.project))?.map((n) => n.split(':')[0]);
    await b.admin.client.rpc('move_project_status', { status_id: b.statuses.done, direction: 'up' });
    expect(await order()).toEqual(['Backlog', 'To do', 'Done', 'In progress']);
    await b.admin.client.rpc('move_project_status', { status_id: b.statuses.backlog, to_index: 99 });
    expect(await order()).toEqual(['To do', 'Done', 'In progress', 'Backlog']);
    await b.admin.client.rpc('move_project_status', { status_id: b.statuses.backlog, to_index: 0 });
    expect(await order()).toEqual(['Backlog', 'To do', 'Done', 'In progress']);
    // At the top already: nothing changes, nothing is refused.
    const top = await b.admin.client.rpc('move_project_status', {
      status_id: b.statuses.backlog,
      direction: 'up',
    });
    expect(top.error).toBeNull();
    const nowhere = await b.admin.client.rpc('move_project_status', { status_id: b.statuses.backlog });
    expect(nowhere.status).toBe(400);
    const forged = await b.admin.client.rpc('move_project_status', {
      status_id: '00000000-0000-4000-8000-000000000000',
      direction: 'up',
    });
    expect(forged.status).toBe(404);
  });
});
