// Sub-tasks and links between tasks, role by role (SPEC sections 3 and 6): a task's parent is a task
// of its own project, one level deep, never itself; links join two tasks of one workspace, never a
// task to itself, and two tasks at most once. Members and above make and remove links in active
// projects; viewers read them; outsiders and anon see nothing. The database refuses every broken
// rule, whoever asks, with a code the app answers 400 or 409 (never a 500).
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { addMember, scene, type Person, type Scene } from '../support/scene.ts';

/** What RLS answers when it hides every row from a statement: no error, and nothing done. */
const NO_ROWS = { error: null, data: [] };

let serial = 0;

/** A task the member made in the scene's project (or `project`): setup, so a refusal throws. */
async function madeTask(s: Scene, fields: { parent_id?: string; project?: string } = {}): Promise<string> {
  const { data, error } = await s.member.client
    .from('tasks')
    .insert({
      workspace_id: s.ws,
      project_id: fields.project ?? s.project,
      title: `task ${++serial}`,
      ...(fields.parent_id ? { parent_id: fields.parent_id } : {}),
    })
    .select('id')
    .single();
  if (error) throw new Error(`the member could not make a task: ${error.message}`);
  return data.id as string;
}

async function madeProject(s: Scene, name = `Project ${++serial}`): Promise<string> {
  const { data, error } = await s.admin.client
    .from('projects')
    .insert({ workspace_id: s.ws, name })
    .select('id')
    .single();
  if (error) throw new Error(`the admin could not make a project: ${error.message}`);
  return data.id as string;
}

const setParent = (p: Person, task: string, parent: string | null) =>
  p.client.from('tasks').update({ parent_id: parent }).eq('id', task).select('id, parent_id');

const parentOf = async (task: string) =>
  (await sql<{ parent_id: string | null }>('select parent_id from public.tasks where id = $1', [task]))[0]
    ?.parent_id;

const link = (p: Person, s: Scene, from: string, to: string, kind = 'blocks', ws = s.ws) =>
  p.client
    .from('task_links')
    .insert({ workspace_id: ws, from_task_id: from, to_task_id: to, kind })
    .select('id, created_by');

const linksBetween = async (a: string, b: string) =>
  sql<{ kind: string }>(
    `select kind from public.task_links
      where (from_task_id, to_task_id) in (($1::uuid, $2::uuid), ($2::uuid, $1::uuid))`,
    [a, b],
  );

describe('sub-tasks', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('are made with a parent, and get, change and lose one, by members and above', async () => {
    const parent = await madeTask(s);
    const child = await madeTask(s, { parent_id: parent });
    expect(await parentOf(child)).toBe(parent);
    const loose = await madeTask(s);
    for (const p of [s.member, s.admin, s.owner]) {
      expect(await setParent(p, loose, parent)).toMatchObject({ error: null, data: [{ parent_id: parent }] });
      expect(await setParent(p, loose, null)).toMatchObject({ error: null, data: [{ parent_id: null }] });
    }
    for (const p of [s.viewer, s.outsider]) expect(await setParent(p, loose, parent)).toMatchObject(NO_ROWS);
    expect(await parentOf(loose)).toBeNull();
  });

  it('are never their own parent', async () => {
    const task = await madeTask(s);
    const refused = await setParent(s.member, task, task);
    expect(refused.error).toMatchObject({ code: '23514', message: 'A task cannot be its own parent.' });
    expect(await parentOf(task)).toBeNull();
  });

  it('are one level deep: a sub-task has no sub-tasks, a parent gets no parent (so no cycles)', async () => {
    const top = await madeTask(s);
    const child = await madeTask(s, { parent_id: top });
    // Under a sub-task: made so, or moved there.
    const made = await s.member.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: s.project, title: 'grandchild', parent_id: child });
    expect(made.error).toMatchObject({ code: '23514' });
    expect(made.error?.message).toMatch(/sub-task cannot have sub-tasks/);
    const other = await madeTask(s);
    expect((await setParent(s.member, other, child)).error).toMatchObject({ code: '23514' });
    // A parent under another task, and the cycle A under B under A.
    const refused = await setParent(s.member, top, other);
    expect(refused.error).toMatchObject({ code: '23514' });
    expect(refused.error?.message).toMatch(/task with sub-tasks cannot become a sub-task/);
    expect((await setParent(s.member, top, child)).error).toMatchObject({ code: '23514' });
    expect(await parentOf(top)).toBeNull();
    expect(await parentOf(other)).toBeNull();
    expect(await parentOf(child)).toBe(top);
  });

  it('have a parent of their own project only, never of another project or workspace', async () => {
    const elsewhere = await madeProject(s);
    const foreign = await madeTask(s, { project: elsewhere });
    const task = await madeTask(s);
    const refused = await setParent(s.member, task, foreign);
    expect(refused.error).toMatchObject({
      code: '23503',
      message: 'The parent must be a task of the same project.',
    });
    const made = await s.member.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: s.project, title: 'under another', parent_id: foreign });
    expect(made.error?.code).toBe('23503');
    // Another workspace's task, even for someone in both; and an id that is no task at all.
    const other = await scene();
    await addMember(other.ws, s.member.id, 'member');
    expect((await setParent(s.member, task, other.task)).error?.code).toBe('23503');
    expect((await setParent(s.member, task, crypto.randomUUID())).error?.code).toBe('23503');
    expect(await parentOf(task)).toBeNull();
  });

  it('stay tasks when their parent is purged', async () => {
    const parent = await madeTask(s);
    const child = await madeTask(s, { parent_id: parent });
    // Purged from the trash (the only way a task row goes).
    const deleted = await sql('delete from public.tasks where id = $1 returning id', [parent]);
    expect(deleted).toEqual([{ id: parent }]);
    expect(await parentOf(child)).toBeNull();
  });
});

describe('task links', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('are made by members, admins and the owner, not by viewers, outsiders or anon', async () => {
    for (const p of [s.member, s.admin, s.owner]) {
      const [a, b] = [await madeTask(s), await madeTask(s)];
      expect(await link(p, s, a, b)).toMatchObject({ error: null, data: [{ created_by: p.id }] });
    }
    const [a, b] = [await madeTask(s), await madeTask(s)];
    for (const p of [s.viewer, s.outsider]) expect((await link(p, s, a, b)).error?.code).toBe('42501');
    const anon = await anonClient()
      .from('task_links')
      .insert({ workspace_id: s.ws, from_task_id: a, to_task_id: b, kind: 'blocks' });
    expect(anon.error?.code).toBe('42501');
    expect(await linksBetween(a, b)).toEqual([]);
  });

  it('are read by every member, and by nobody else', async () => {
    const [a, b] = [await madeTask(s), await madeTask(s)];
    const made = await link(s.member, s, a, b, 'relates');
    const id = made.data?.[0]?.id;
    expect(id).toBeTruthy();
    for (const p of [s.owner, s.admin, s.member, s.other, s.viewer])
      expect(await p.client.from('task_links').select('kind').eq('id', id)).toMatchObject({
        error: null,
        data: [{ kind: 'relates' }],
      });
    expect(await s.outsider.client.from('task_links').select('id').eq('id', id)).toMatchObject(NO_ROWS);
    expect((await anonClient().from('task_links').select('id')).error?.code).toBe('42501');
  });

  it('are removed by members, admins and the owner, not by viewers or outsiders', async () => {
    const [a, b] = [await madeTask(s), await madeTask(s)];
    for (const p of [s.viewer, s.outsider]) {
      await link(s.member, s, a, b);
      expect(await p.client.from('task_links').delete().eq('from_task_id', a).select('id')).toMatchObject(
        NO_ROWS,
      );
      expect(await linksBetween(a, b)).toHaveLength(1);
      await sql('delete from public.task_links where from_task_id = $1', [a], { role: 'superuser' });
    }
    for (const p of [s.member, s.admin, s.owner]) {
      await link(s.member, s, a, b);
      const removed = await p.client.from('task_links').delete().eq('from_task_id', a).select('id');
      expect(removed.error).toBeNull();
      expect(removed.data).toHaveLength(1);
      expect(await linksBetween(a, b)).toEqual([]);
    }
  });

  it('are never changed in place, nor made in someone else’s name', async () => {
    const [a, b] = [await madeTask(s), await madeTask(s)];
    await link(s.member, s, a, b);
    const changed = await s.member.client
      .from('task_links')
      .update({ kind: 'relates' })
      .eq('from_task_id', a);
    expect(changed.error?.code).toBe('42501');
    const forged = await s.member.client.from('task_links').insert({
      workspace_id: s.ws,
      from_task_id: b,
      to_task_id: a,
      kind: 'relates',
      created_by: s.admin.id,
    });
    expect(forged.error?.code).toBe('42501');
    expect(await linksBetween(a, b)).toEqual([{ kind: 'blocks' }]);
  });

  it('join tasks of any project of the workspace, and never another workspace’s', async () => {
    const elsewhere = await madeProject(s);
    const [a, b] = [await madeTask(s), await madeTask(s, { project: elsewhere })];
    expect((await link(s.member, s, a, b, 'duplicates')).error).toBeNull();
    // Another workspace's task, even for someone in both, named with either workspace.
    const other = await scene();
    await addMember(other.ws, s.member.id, 'member');
    const c = await madeTask(s);
    const refused = await link(s.member, s, c, other.task);
    expect(refused.error?.code).toBe('23503');
    expect((await link(s.member, s, c, other.task, 'blocks', other.ws)).error?.code).toMatch(
      /^(23503|42501)$/,
    );
    expect(await linksBetween(c, other.task)).toEqual([]);
  });

  it('never join a task to itself, nor two tasks twice, either way round', async () => {
    const [a, b] = [await madeTask(s), await madeTask(s)];
    const self = await link(s.member, s, a, a);
    expect(self.error).toMatchObject({ code: '23514' });
    expect(self.error?.message).toContain('task_links_not_self');
    expect((await link(s.member, s, a, b, 'relates')).error).toBeNull();
    for (const [from, to, kind] of [
      [a, b, 'relates'],
      [b, a, 'relates'],
      [a, b, 'blocks'],
      [b, a, 'duplicates'],
    ] as const)
      expect((await link(s.member, s, from, to, kind)).error?.code).toBe('23505');
    expect(await linksBetween(a, b)).toEqual([{ kind: 'relates' }]);
    expect((await link(s.member, s, a, b, 'follows')).error?.code).toBe('23514');
  });

  it('stay as they are in archived projects, and go with their tasks', async () => {
    const archived = await scene();
    const [a, b, c] = [await madeTask(archived), await madeTask(archived), await madeTask(archived)];
    expect((await link(archived.member, archived, a, b)).error).toBeNull();
    await archived.admin.client
      .from('projects')
      .update({ archived_at: new Date().toISOString() })
      .eq('id', archived.project);
    for (const p of [archived.member, archived.owner]) {
      expect((await link(p, archived, a, c)).error?.code).toBe('42501');
      expect(await p.client.from('task_links').delete().eq('from_task_id', a).select('id')).toMatchObject(
        NO_ROWS,
      );
    }
    expect(await linksBetween(a, b)).toHaveLength(1);
    await sql('delete from public.tasks where id = $1', [b], { role: 'superuser' });
    expect(await linksBetween(a, b)).toEqual([]);
  });
});

describe('the history of parents and links', () => {
  let s: Scene;
  let key: string;
  beforeAll(async () => {
    s = await scene();
    const [project] = await sql<{ key: string }>('select key from public.projects where id = $1', [
      s.project,
    ]);
    key = project?.key ?? '';
  });

  /** A task's entries of these kinds, oldest first, as the database wrote them. */
  const entries = (task: string, kinds: string[]) =>
    sql<{ kind: string; data: unknown; actor_id: string | null }>(
      `select kind, data, actor_id from public.task_history
        where task_id = $1 and kind = any ($2) order by id`,
      [task, kinds],
    );
  const named = async (task: string) => {
    const [row] = await sql<{ number: number; title: string }>(
      'select number, title from public.tasks where id = $1',
      [task],
    );
    return { id: task, ref: `${key}-${row?.number}`, title: row?.title };
  };

  it('records a parent given, changed and cleared, by whom', async () => {
    const [a, b] = [await madeTask(s), await madeTask(s)];
    const child = await madeTask(s, { parent_id: a });
    expect((await setParent(s.member, child, b)).error).toBeNull();
    expect((await setParent(s.admin, child, null)).error).toBeNull();
    // A refused change writes nothing.
    expect((await setParent(s.member, child, child)).error).not.toBeNull();
    expect(await entries(child, ['parent'])).toEqual([
      { kind: 'parent', data: { from: null, to: await named(a) }, actor_id: s.member.id },
      { kind: 'parent', data: { from: await named(a), to: await named(b) }, actor_id: s.member.id },
      { kind: 'parent', data: { from: await named(b), to: null }, actor_id: s.admin.id },
    ]);
    // A parent purged takes itself off its sub-tasks without an entry on them.
    expect((await setParent(s.member, child, a)).error).toBeNull();
    await sql('delete from public.tasks where id = $1', [a]);
    expect(await parentOf(child)).toBeNull();
    expect(await entries(child, ['parent'])).toHaveLength(4);
  });

  it('records a link made and removed on both tasks, each from its own side', async () => {
    const [a, b, c] = [await madeTask(s), await madeTask(s), await madeTask(s)];
    expect((await link(s.member, s, a, b, 'blocks')).error).toBeNull();
    expect((await link(s.member, s, c, a, 'duplicates')).error).toBeNull();
    expect((await link(s.member, s, b, c, 'relates')).error).toBeNull();
    await s.member.client.from('task_links').delete().eq('from_task_id', a).eq('to_task_id', b);
    const kinds = ['link_added', 'link_removed'];
    expect(await entries(a, kinds)).toEqual([
      { kind: 'link_added', data: { type: 'blocks', other: await named(b) }, actor_id: s.member.id },
      { kind: 'link_added', data: { type: 'duplicated_by', other: await named(c) }, actor_id: s.member.id },
      { kind: 'link_removed', data: { type: 'blocks', other: await named(b) }, actor_id: s.member.id },
    ]);
    expect(await entries(b, kinds)).toEqual([
      { kind: 'link_added', data: { type: 'blocked_by', other: await named(a) }, actor_id: s.member.id },
      { kind: 'link_added', data: { type: 'relates', other: await named(c) }, actor_id: s.member.id },
      { kind: 'link_removed', data: { type: 'blocked_by', other: await named(a) }, actor_id: s.member.id },
    ]);
    expect(await entries(c, kinds)).toEqual([
      { kind: 'link_added', data: { type: 'duplicate_of', other: await named(a) }, actor_id: s.member.id },
      { kind: 'link_added', data: { type: 'relates', other: await named(b) }, actor_id: s.member.id },
    ]);
    // A task purged takes its links with it, and writes no removal on the tasks left.
    await sql('delete from public.tasks where id = $1', [c]);
    expect(await entries(a, kinds)).toHaveLength(3);
    expect(await entries(b, kinds)).toHaveLength(3);
  });
});
