// RLS and RPCs of projects and tasks, role by role (SPEC section 6).
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { crew, defaultStatuses, type Crew, type DefaultStatuses, type Person } from '../support/scene.ts';

interface Board extends Omit<Crew, 'ws'> {
  ws: string;
  project: string;
  statuses: DefaultStatuses;
}

/** The crew and one project, with no task yet. */
async function board(): Promise<Board> {
  const cast = await crew();
  const { data: project, error } = await cast.admin.client
    .from('projects')
    .insert({ workspace_id: cast.ws.id, name: 'Launch' })
    .select('id')
    .single();
  if (error) throw error;
  return { ...cast, ws: cast.ws.id, project: project.id, statuses: await defaultStatuses(project.id) };
}

/** What RLS answers when it hides every row from a statement: no error, and nothing done. */
const NO_ROWS = { error: null, data: [] };

async function newTask(p: Person, b: Board, title: string, extra: Record<string, unknown> = {}) {
  return p.client
    .from('tasks')
    .insert({ workspace_id: b.ws, project_id: b.project, title, ...extra })
    .select('id, number, position, status:status_id')
    .single();
}

describe('projects', () => {
  it('are created, renamed and archived by admins and owners only', async () => {
    const b = await board();
    for (const p of [b.member, b.viewer, b.outsider]) {
      const { error } = await p.client.from('projects').insert({ workspace_id: b.ws, name: 'Nope' });
      expect(error?.code).toBe('42501');
      const renamed = await p.client
        .from('projects')
        .update({ name: 'Renamed' })
        .eq('id', b.project)
        .select('id');
      expect(renamed).toMatchObject(NO_ROWS);
    }
    const { data, error } = await b.owner.client
      .from('projects')
      .update({ name: 'Launch 2' })
      .eq('id', b.project)
      .select('name');
    expect(error).toBeNull();
    expect(data).toEqual([{ name: 'Launch 2' }]);
    expect((await b.viewer.client.from('projects').select('name').eq('id', b.project)).data).toEqual([
      { name: 'Launch 2' },
    ]);
    expect((await b.outsider.client.from('projects').select('id').eq('id', b.project)).data).toEqual([]);
    const anon = await anonClient().from('projects').select('id');
    expect(anon.error?.code).toBe('42501');
  });

  it('cannot be deleted by anyone but through their workspace', async () => {
    const b = await board();
    // No role holds the privilege: archiving is how a board is retired (deleting the workspace takes it).
    for (const p of [b.owner, b.admin, b.member, b.viewer, b.outsider]) {
      const deleted = await p.client.from('projects').delete().eq('id', b.project).select('id');
      expect(deleted.error?.code).toBe('42501');
    }
    expect((await b.owner.client.from('projects').select('id').eq('id', b.project)).data).toEqual([
      { id: b.project },
    ]);
  });
});

describe('tasks', () => {
  let b: Board;
  beforeAll(async () => {
    b = await board();
  });

  it('are created by members with per-project numbers, not by viewers or outsiders', async () => {
    const first = await newTask(b.member, b, 'Write the brief');
    const second = await newTask(b.admin, b, 'Review the brief');
    expect(first.error).toBeNull();
    expect(second.data?.number).toBe((first.data?.number ?? 0) + 1);
    expect((await newTask(b.viewer, b, 'Viewer task')).error?.code).toBe('42501');
    expect((await newTask(b.outsider, b, 'Outsider task')).error?.code).toBe('42501');
    expect(
      (await anonClient().from('tasks').insert({ workspace_id: b.ws, project_id: b.project, title: 'x' }))
        .error?.code,
    ).toBe('42501');
  });

  it('are read by every member and by nobody else', async () => {
    const { data: task } = await newTask(b.member, b, 'Read me');
    const id = task?.id ?? '';
    for (const p of [b.owner, b.admin, b.member, b.viewer]) {
      expect(await p.client.from('tasks').select('id').eq('id', id)).toMatchObject({
        error: null,
        data: [{ id }],
      });
    }
    expect(await b.outsider.client.from('tasks').select('id').eq('id', id)).toMatchObject(NO_ROWS);
    expect((await anonClient().from('tasks').select('id').eq('id', id)).error?.code).toBe('42501');
  });

  it('are edited by members, admins and the owner, not by viewers or outsiders', async () => {
    const { data: task } = await newTask(b.member, b, 'Edit me');
    const id = task?.id ?? '';
    for (const p of [b.viewer, b.outsider]) {
      const hijacked = await p.client.from('tasks').update({ title: 'Hijacked' }).eq('id', id).select('id');
      expect(hijacked).toMatchObject(NO_ROWS);
    }
    for (const [p, title] of [
      [b.member, 'Edited by a member'],
      [b.admin, 'Edited by an admin'],
      [b.owner, 'Edited by the owner'],
    ] as const) {
      const edited = await p.client
        .from('tasks')
        .update({ title, priority: 'high' })
        .eq('id', id)
        .select('title, priority');
      expect(edited).toMatchObject({ error: null, data: [{ title, priority: 'high' }] });
    }
  });

  it('are not deleted through the API by anyone: they go to the trash (tests/rls/trash.test.ts)', async () => {
    const { data: task } = await newTask(b.member, b, 'Keep me');
    const id = task?.id ?? '';
    for (const p of [b.owner, b.admin, b.member, b.viewer, b.outsider]) {
      expect((await p.client.from('tasks').delete().eq('id', id).select('id')).error?.code).toBe('42501');
    }
    expect((await b.member.client.from('tasks').select('id').eq('id', id)).data).toEqual([{ id }]);
  });

  it('stay in their workspace: a member cannot move one into another workspace’s project', async () => {
    const other = await board();
    const { data: task } = await newTask(b.member, b, 'Stay home');
    const move = await b.member.client
      .from('tasks')
      .update({ project_id: other.project })
      .eq('id', task?.id ?? '');
    expect(move.error?.code).toBe('42501');
    const smuggle = await b.member.client
      .from('tasks')
      .insert({ workspace_id: b.ws, project_id: other.project, title: 'Smuggled' });
    expect(smuggle.error?.code).toBe('23503');
  });

  it('are assigned only to members of the workspace', async () => {
    const { data: task } = await newTask(b.member, b, 'Assign me');
    const toOutsider = await b.member.client
      .from('tasks')
      .update({ assignee_id: b.outsider.id })
      .eq('id', task?.id ?? '');
    expect(toOutsider.error?.code).toBe('23503');
    const toViewer = await b.member.client
      .from('tasks')
      .update({ assignee_id: b.viewer.id })
      .eq('id', task?.id ?? '')
      .select('assignee_id');
    expect(toViewer.data).toEqual([{ assignee_id: b.viewer.id }]);
  });

  it('refuse titles and descriptions beyond the limits', async () => {
    expect((await newTask(b.member, b, '   ')).error?.code).toBe('23514');
    expect((await newTask(b.member, b, 'x'.repeat(201))).error?.code).toBe('23514');
    expect((await newTask(b.member, b, 'Long', { description: 'x'.repeat(20001) })).error?.code).toBe(
      '23514',
    );
  });

  it('are read-only in archived projects', async () => {
    const archived = await board();
    const { data: task } = await newTask(archived.member, archived, 'Before archiving');
    await archived.admin.client
      .from('projects')
      .update({ archived_at: new Date().toISOString() })
      .eq('id', archived.project);
    expect((await newTask(archived.member, archived, 'After archiving')).error?.code).toBe('42501');
    const changed = await archived.member.client
      .from('tasks')
      .update({ title: 'Changed' })
      .eq('id', task?.id ?? '')
      .select('id');
    expect(changed).toMatchObject(NO_ROWS);
    expect(
      (
        await archived.viewer.client
          .from('tasks')
          .select('title')
          .eq('id', task?.id ?? '')
      ).data,
    ).toEqual([{ title: 'Before archiving' }]);
  });
});

describe('move_task', () => {
  it('places a task between its neighbours, changing no other row', async () => {
    const b = await board();
    const made = [];
    for (const title of ['A', 'B', 'C'])
      made.push((await newTask(b.member, b, title, { status_id: b.statuses.todo })).data);
    const [a, , c] = made;
    const { data: moving } = await newTask(b.member, b, 'Mover', { status_id: b.statuses.backlog });
    const before =
      (await b.member.client.from('tasks').select('id, position, updated_at').eq('project_id', b.project))
        .data ?? [];
    const { data, error } = await b.member.client.rpc('move_task', {
      task_id: moving?.id,
      status_id: b.statuses.todo,
      after_task_id: a?.id,
      before_task_id: made[1]?.id,
    });
    expect(error).toBeNull();
    expect(Number(data.position)).toBeGreaterThan(Number(a?.position));
    expect(Number(data.position)).toBeLessThan(Number(made[1]?.position));
    const after =
      (await b.member.client.from('tasks').select('id, position, updated_at').eq('project_id', b.project))
        .data ?? [];
    const changed = after.filter(
      (row) => JSON.stringify(row) !== JSON.stringify(before.find((x) => x.id === row.id)),
    );
    expect(changed.map((r) => r.id)).toEqual([moving?.id]);
    const order = (
      await b.member.client
        .from('tasks')
        .select('title')
        .eq('project_id', b.project)
        .eq('status_id', b.statuses.todo)
        .order('position')
    ).data;
    expect(order?.map((r) => r.title)).toEqual(['A', 'Mover', 'B', 'C']);
    const toBottom = await b.member.client.rpc('move_task', {
      task_id: a?.id,
      status_id: b.statuses.todo,
      after_task_id: c?.id,
    });
    expect(Number(toBottom.data.position)).toBeGreaterThan(Number(c?.position));
  });

  it('refuses a neighbour from another column or another board, and moves nothing', async () => {
    const b = await board();
    const { data: backlog } = await newTask(b.member, b, 'In the backlog', { status_id: b.statuses.backlog });
    const { data: todo } = await newTask(b.member, b, 'To do', { status_id: b.statuses.todo });
    const { data: moving } = await newTask(b.member, b, 'Mover', { status_id: b.statuses.in_progress });
    const { data: elsewhere } = await b.admin.client
      .from('projects')
      .insert({ workspace_id: b.ws, name: 'Elsewhere' })
      .select('id')
      .single();
    const { data: otherBoard } = await b.member.client
      .from('tasks')
      .insert({ workspace_id: b.ws, project_id: elsewhere?.id, title: 'Other board' })
      .select('id')
      .single();
    const before = await b.member.client
      .from('tasks')
      .select('status:status_id, position')
      .eq('id', moving?.id)
      .single();

    const cases = [
      { after_task_id: backlog?.id, message: 'The task to follow is not in that column.' },
      { before_task_id: backlog?.id, message: 'The task to precede is not in that column.' },
      { after_task_id: otherBoard?.id, message: 'The task to follow is not in that column.' },
      { before_task_id: otherBoard?.id, message: 'The task to precede is not in that column.' },
    ];
    for (const { message, ...neighbour } of cases) {
      const { data, error } = await b.member.client.rpc('move_task', {
        task_id: moving?.id,
        status_id: b.statuses.todo,
        ...neighbour,
      });
      expect(data).toBeNull();
      expect(error).toMatchObject({ code: '23514', message });
    }
    const after = await b.member.client
      .from('tasks')
      .select('status:status_id, position')
      .eq('id', moving?.id)
      .single();
    expect(before.data?.status).toBe(b.statuses.in_progress);
    expect(after.data).toEqual(before.data);
    // A neighbour in that column is fine, so the refusals were about where the neighbour is.
    const fine = await b.member.client.rpc('move_task', {
      task_id: moving?.id,
      status_id: b.statuses.todo,
      after_task_id: todo?.id,
    });
    expect(fine.error).toBeNull();
    expect(fine.data).toMatchObject({ status_id: b.statuses.todo });
  });

  it('is refused to viewers, and outsiders cannot even find the task', async () => {
    const b = await board();
    const { data: task } = await newTask(b.member, b, 'Stay put');
    const byViewer = await b.viewer.client.rpc('move_task', {
      task_id: task?.id,
      status_id: b.statuses.done,
    });
    expect(byViewer.error?.code).toBe('42501');
    const byOutsider = await b.outsider.client.rpc('move_task', {
      task_id: task?.id,
      status_id: b.statuses.done,
    });
    expect(byOutsider.status).toBe(404);
    const anon = await anonClient().rpc('move_task', { task_id: task?.id, status_id: b.statuses.done });
    expect(anon.error?.code).toBe('42501');
  });
});
