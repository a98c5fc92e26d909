// Bulk edits (SPEC sections 6 and 9) through public.bulk_edit_tasks, and the list view's reads
// through public.list_page: row-level security decides task by task. A member changes the tasks of
// their workspace; a viewer and an outsider change none and are told how many were refused; more than
// 500 tasks at once are refused whole; an edit that fails changes nothing. The list shows a member the
// project's tasks in the asked order, and shows an outsider nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/db.ts';
import { defaultStatuses, scene, type DefaultStatuses, type Person, type Scene } from '../support/scene.ts';

async function newTasks(s: Scene, titles: string[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const { data, error } = await s.member.client
    .from('tasks')
    .insert(titles.map((title) => ({ workspace_id: s.ws, project_id: s.project, title, ...extra })))
    .select('id, number')
    .order('number');
  if (error) throw error;
  return data.map((t) => t.id);
}

/** The tasks as the database holds them, past RLS. */
const rows = (ids: string[]) =>
  sql<{
    id: string;
    status_id: string;
    priority: string;
    assignee_id: string | null;
    deleted_at: string | null;
  }>(
    'select id, status_id, priority, assignee_id, deleted_at from public.tasks where id = any ($1) order by number',
    [ids],
    { role: 'superuser' },
  );

const bulk = (p: Person, ids: string[], changes: Record<string, unknown>) =>
  p.client.rpc('bulk_edit_tasks', { task_ids: ids, changes });

describe('bulk_edit_tasks', () => {
  let s: Scene;
  let statuses: DefaultStatuses;
  beforeAll(async () => {
    s = await scene();
    statuses = await defaultStatuses(s.project);
  });

  it('moves a member’s three tasks to Done in one call, to the bottom of the column, with history', async () => {
    const ids = await newTasks(s, ['One', 'Two', 'Three']);
    const { data, error } = await bulk(s.member, ids, { status_id: statuses.done });
    expect(error).toBeNull();
    expect(data).toEqual({ changed: 3, refused: 0 });
    expect((await rows(ids)).map((r) => r.status_id)).toEqual([statuses.done, statuses.done, statuses.done]);
    // In the order they stood, one after another.
    const positions = await sql<{ position: string }>(
      'select position from public.tasks where id = any ($1) order by number',
      [ids],
      { role: 'superuser' },
    );
    const numbers = positions.map((p) => Number(p.position));
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
    // Each task's history says who moved it, as a move from the panel does.
    const history = await sql<{ task_id: string; actor_id: string }>(
      "select task_id, actor_id from public.task_history where task_id = any ($1) and kind = 'status'",
      [ids],
      { role: 'superuser' },
    );
    expect(history.map((h) => h.task_id).sort()).toEqual([...ids].sort());
    expect(new Set(history.map((h) => h.actor_id))).toEqual(new Set([s.member.id]));
  });

  it('sets the priority and the assignee, and takes the assignee away', async () => {
    const ids = await newTasks(s, ['P1', 'P2']);
    expect((await bulk(s.member, ids, { priority: 'urgent', assignee_id: s.other.id })).data).toEqual({
      changed: 2,
      refused: 0,
    });
    expect((await rows(ids)).map((r) => [r.priority, r.assignee_id])).toEqual([
      ['urgent', s.other.id],
      ['urgent', s.other.id],
    ]);
    expect((await bulk(s.member, ids, { assignee_id: null })).data).toEqual({ changed: 2, refused: 0 });
    expect((await rows(ids)).map((r) => r.assignee_id)).toEqual([null, null]);
  });

  it('changes nothing for a viewer or an outsider, and says how many were refused', async () => {
    const ids = await newTasks(s, ['V1', 'V2', 'V3']);
    const before = await rows(ids);
    for (const p of [s.viewer, s.outsider]) {
      const { data, error } = await bulk(p, ids, { status_id: statuses.done, priority: 'high' });
      expect(error, p.email).toBeNull();
      expect(data, p.email).toEqual({ changed: 0, refused: 3 });
      const trashed = await bulk(p, ids, { trash: true });
      expect(trashed.data, p.email).toEqual({ changed: 0, refused: 3 });
    }
    expect(await rows(ids)).toEqual(before);
  });

  it('counts a task of another project (no such status there) or an assignee who is no member as refused', async () => {
    const [mine] = await newTasks(s, ['Here']);
    const elsewhere = await s.admin.client
      .from('projects')
      .insert({ workspace_id: s.ws, name: 'Elsewhere' })
      .select('id')
      .single();
    if (elsewhere.error) throw elsewhere.error;
    const other = await s.member.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: elsewhere.data.id, title: 'There' })
      .select('id')
      .single();
    if (other.error || !mine) throw other.error ?? new Error('no task');
    expect((await bulk(s.member, [mine, other.data.id], { status_id: statuses.done })).data).toEqual({
      changed: 1,
      refused: 1,
    });
    expect((await bulk(s.member, [mine], { assignee_id: s.outsider.id })).data).toEqual({
      changed: 0,
      refused: 1,
    });
    expect((await rows([mine]))[0]?.assignee_id).toBeNull();
  });

  it('moves tasks to the trash for admins only, as the panel’s delete does', async () => {
    const ids = await newTasks(s, ['T1', 'T2']);
    expect((await bulk(s.member, ids, { trash: true })).data).toEqual({ changed: 0, refused: 2 });
    expect((await rows(ids)).every((r) => r.deleted_at === null)).toBe(true);
    expect((await bulk(s.admin, ids, { trash: true })).data).toEqual({ changed: 2, refused: 0 });
    expect((await rows(ids)).every((r) => r.deleted_at !== null)).toBe(true);
    // In the trash already: nothing more to do to them.
    expect((await bulk(s.admin, ids, { trash: true })).data).toEqual({ changed: 0, refused: 2 });
  });

  it('refuses more than 500 tasks at once, and bad changes, changing nothing', async () => {
    const [id] = await newTasks(s, ['Keep']);
    if (!id) throw new Error('no task');
    const many = [id, ...Array.from({ length: 500 }, () => crypto.randomUUID())];
    const tooMany = await bulk(s.member, many, { priority: 'low' });
    expect(tooMany.error?.message).toBe('Change at most 500 tasks at once.');
    expect(tooMany.error?.code).toBe('PT413');
    // The same id twice is one task.
    expect((await bulk(s.member, [...many.slice(0, 500), id], { priority: 'low' })).data).toEqual({
      changed: 1,
      refused: 499,
    });
    for (const changes of [{}, { title: 'x' }, { priority: 'nope' }, { trash: true, priority: 'high' }]) {
      const { error } = await bulk(s.member, [id], changes);
      expect(error, JSON.stringify(changes)).not.toBeNull();
    }
    expect((await rows([id]))[0]?.priority).toBe('low');
  });

  it('is atomic: when one task’s change fails, none changes', async () => {
    const ids = await newTasks(s, ['A1', 'A2']);
    // The second task's row refuses the new priority: a check of the test's own, for that row only.
    const [, failing] = ids;
    await sql(
      `alter table public.tasks add constraint bulk_edit_test_refuses check (id <> '${failing}' or priority <> 'high') not valid`,
      [],
      { role: 'superuser' },
    );
    try {
      const { error } = await bulk(s.member, ids, { priority: 'high' });
      expect(error?.code).toBe('23514');
      expect((await rows(ids)).map((r) => r.priority)).toEqual(['none', 'none']);
    } finally {
      await sql('alter table public.tasks drop constraint bulk_edit_test_refuses', [], { role: 'superuser' });
    }
  });
});

describe('list_page', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
    await newTasks(s, ['Later'], { due_date: '2030-01-02' });
    await newTasks(s, ['Sooner'], { due_date: '2030-01-01' });
    await newTasks(s, ['Whenever']);
  });

  const page = (p: Person, args: Record<string, unknown>) =>
    p.client.rpc('list_page', { workspace_slug: s.slug, project_key: 'LAU', ...args });

  it('shows a viewer the tasks by due date, missing dates last both ways, ties by number', async () => {
    type Answer = { count: number; tasks: Array<{ title: string }> };
    const asc = (await page(s.viewer, { sort: 'due', dir: 'asc' })).data as Answer;
    expect(asc.tasks.map((t) => t.title)).toEqual(['Sooner', 'Later', 'Ship it', 'Whenever']);
    const desc = (await page(s.viewer, { sort: 'due', dir: 'desc' })).data as Answer;
    expect(desc.tasks.map((t) => t.title)).toEqual(['Later', 'Sooner', 'Whenever', 'Ship it']);
    expect(desc.count).toBe(4);
    const filtered = (await page(s.viewer, { filters: { q: 'soon' }, sort: 'nonsense', dir: 'up' }))
      .data as Answer;
    expect(filtered.tasks.map((t) => t.title)).toEqual(['Sooner']);
    const windowed = (await page(s.viewer, { sort: 'key', shown: 2 })).data as Answer;
    expect(windowed.tasks.map((t) => t.title)).toEqual(['Ship it', 'Later']);
    expect(windowed.count).toBe(4);
  });

  it('shows an outsider nothing: no membership, no project, no tasks', async () => {
    const { data, error } = await page(s.outsider, {});
    expect(error).toBeNull();
    expect(data).toMatchObject({ session: 'active', membership: null, project: null, tasks: null });
  });
});
