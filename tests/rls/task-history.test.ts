// A task's history (SPEC section 3), written by the database's triggers and by nothing else: one
// entry for a task's creation and for each change of its title, status, assignee, priority, due date
// and labels, naming who did it and what it named then; none for an update that changes none of them.
// Members of the workspace read it, viewers included; outsiders and anon see nothing; nobody inserts,
// changes or deletes an entry through the API, whatever their role.
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { dbClient, sql } from '../support/db.ts';
import { defaultStatuses, scene, type Person, type Scene } from '../support/scene.ts';

interface Entry {
  id: number;
  kind: string;
  actor_id: string | null;
  data: Record<string, unknown>;
}

/** The task's history as the database holds it, oldest first. */
const historyOf = (task: string) =>
  sql<Entry>(
    'select id::int as id, kind, actor_id, data from public.task_history where task_id = $1 order by id',
    [task],
    {
      role: 'superuser',
    },
  );

/** The entries written while `act` ran. */
async function written(task: string, act: () => PromiseLike<unknown>): Promise<Entry[]> {
  const before = (await historyOf(task)).at(-1)?.id ?? 0;
  await act();
  return (await historyOf(task)).filter((e) => e.id > before);
}

/** Fails on a refusal, so a broken step is not mistaken for "nothing written". */
async function ok(result: PromiseLike<{ error: unknown }>): Promise<void> {
  const { error } = await result;
  if (error) throw new Error(`refused: ${JSON.stringify(error)}`);
}

const updateTask = (p: Person, s: Scene, fields: Record<string, unknown>) =>
  ok(p.client.from('tasks').update(fields).eq('id', s.task));

describe('task history', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('begins with the task’s creation, by whoever made it', async () => {
    expect(await historyOf(s.task)).toEqual([
      expect.objectContaining({ kind: 'created', actor_id: s.member.id, data: {} }),
    ]);
  });

  it('writes one entry for each field changed, with what it was and what it became, and who changed it', async () => {
    const { todo, in_progress } = await defaultStatuses(s.project);
    expect(await written(s.task, () => updateTask(s.member, s, { title: 'Ship it today' }))).toEqual([
      expect.objectContaining({
        kind: 'title',
        actor_id: s.member.id,
        data: { from: 'Ship it', to: 'Ship it today' },
      }),
    ]);
    expect(
      await written(s.task, () =>
        s.other.client.rpc('move_task', { task_id: s.task, status_id: in_progress }),
      ),
    ).toEqual([
      expect.objectContaining({
        kind: 'status',
        actor_id: s.other.id,
        data: { from: { id: todo, name: 'To do' }, to: { id: in_progress, name: 'In progress' } },
      }),
    ]);
    const [otherName] = await sql<{ display_name: string }>(
      'select display_name from public.profiles where id = $1',
      [s.other.id],
    );
    expect(await written(s.task, () => updateTask(s.admin, s, { assignee_id: s.other.id }))).toEqual([
      expect.objectContaining({
        kind: 'assignee',
        actor_id: s.admin.id,
        data: { from: null, to: { id: s.other.id, name: otherName?.display_name } },
      }),
    ]);
    expect(await written(s.task, () => updateTask(s.member, s, { assignee_id: null }))).toEqual([
      expect.objectContaining({
        kind: 'assignee',
        data: { from: { id: s.other.id, name: otherName?.display_name }, to: null },
      }),
    ]);
    expect(await written(s.task, () => updateTask(s.member, s, { due_date: '2026-12-24' }))).toEqual([
      expect.objectContaining({ kind: 'due_date', data: { from: null, to: '2026-12-24' } }),
    ]);
    // Several fields in one update: one entry each, in one transaction.
    const several = await written(s.task, () =>
      updateTask(s.member, s, { priority: 'high', due_date: null, title: 'Ship it now' }),
    );
    expect(several.map((e) => e.kind).sort()).toEqual(['due_date', 'priority', 'title']);
    expect(several.find((e) => e.kind === 'priority')?.data).toEqual({ from: 'none', to: 'high' });
    expect(several.find((e) => e.kind === 'due_date')?.data).toEqual({ from: '2026-12-24', to: null });
  });

  it('writes nothing for an update that changes none of its fields', async () => {
    const [task] = await sql<{ title: string; priority: string; status_id: string }>(
      'select title, priority, status_id from public.tasks where id = $1',
      [s.task],
    );
    expect(
      await written(s.task, async () => {
        // A move within its column, a new description, and the same values written again.
        await updateTask(s.member, s, { position: 123456 });
        await updateTask(s.member, s, { description: 'Now with a description' });
        await updateTask(s.member, s, {
          title: task?.title,
          priority: task?.priority,
          status_id: task?.status_id,
        });
      }),
    ).toEqual([]);
  });

  it('names a status as it was named then, after it is renamed', async () => {
    const { done } = await defaultStatuses(s.project);
    await ok(s.member.client.rpc('move_task', { task_id: s.task, status_id: done }));
    await ok(s.admin.client.from('project_statuses').update({ name: 'Shipped' }).eq('id', done));
    const status = (await historyOf(s.task)).filter((e) => e.kind === 'status').at(-1);
    expect(status?.data).toMatchObject({ to: { id: done, name: 'Done' } });
  });

  it('writes a label put on and taken off, with its name and colour, but not when the label is deleted', async () => {
    const { data: label } = await s.admin.client
      .from('labels')
      .insert({ workspace_id: s.ws, name: 'Backend', color: 'teal' })
      .select('id')
      .single();
    const id = label?.id ?? '';
    const snapshot = { id, name: 'Backend', color: 'teal' };
    expect(
      await written(s.task, () =>
        ok(s.member.client.from('task_labels').insert({ task_id: s.task, label_id: id, workspace_id: s.ws })),
      ),
    ).toEqual([expect.objectContaining({ kind: 'label_added', actor_id: s.member.id, data: snapshot })]);
    expect(
      await written(s.task, () =>
        ok(s.other.client.rpc('set_task_labels', { task_id: s.task, label_ids: [] })),
      ),
    ).toEqual([expect.objectContaining({ kind: 'label_removed', actor_id: s.other.id, data: snapshot })]);
    await ok(s.member.client.rpc('set_task_labels', { task_id: s.task, label_ids: [id] }));
    expect(await written(s.task, () => ok(s.admin.client.from('labels').delete().eq('id', id)))).toEqual([]);
  });

  it('keeps its entries when an account goes, naming nobody', async () => {
    const gone = await scene();
    await ok(gone.member.client.from('tasks').update({ assignee_id: gone.member.id }).eq('id', gone.task));
    // As the admin API deletes an account: its task is unassigned on the way.
    await sql('delete from auth.users where id = $1', [gone.member.id], { role: 'superuser' });
    const entries = await historyOf(gone.task);
    expect(entries.map((e) => [e.kind, e.actor_id])).toEqual([
      ['created', null],
      ['assignee', null],
      ['assignee', null],
    ]);
    expect(entries.at(-1)?.data).toMatchObject({ from: { id: gone.member.id }, to: null });
  });

  it('names nobody as the actor when the signed-in account no longer exists', async () => {
    const db = dbClient('superuser');
    await db.connect();
    try {
      await db.query(
        "select set_config('request.jwt.claims', json_build_object('sub', gen_random_uuid())::text, false)",
      );
      await db.query("select private.record_task_history($1, $2, 'restored', '{}')", [s.ws, s.task]);
    } finally {
      await db.end();
    }
    expect((await historyOf(s.task)).at(-1)).toMatchObject({ kind: 'restored', actor_id: null });
  });

  it('goes with its task', async () => {
    const { data } = await s.member.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: s.project, title: 'Short-lived' })
      .select('id')
      .single();
    const task = data?.id ?? '';
    expect(await historyOf(task)).toHaveLength(1);
    // Purged from the trash (the only way a task row goes).
    await sql('delete from public.tasks where id = $1', [task]);
    expect(await historyOf(task)).toEqual([]);
  });
});

describe('task history under RLS', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
    await s.member.client.from('tasks').update({ title: 'Ship it soon' }).eq('id', s.task);
  });

  it('is read by every member, viewers included, and by no outsider or anon', async () => {
    for (const p of [s.owner, s.admin, s.member, s.viewer]) {
      const { data, error } = await p.client
        .from('task_history')
        .select('kind, actor_id, data')
        .eq('task_id', s.task)
        .order('id');
      expect(error).toBeNull();
      expect(data?.map((e) => e.kind)).toEqual(['created', 'title']);
    }
    expect((await s.outsider.client.from('task_history').select('id').eq('task_id', s.task)).data).toEqual(
      [],
    );
    expect((await s.outsider.client.from('task_history').select('id').eq('workspace_id', s.ws)).data).toEqual(
      [],
    );
    const anon = await anonClient().from('task_history').select('id').eq('task_id', s.task);
    expect(anon.data ?? []).toEqual([]);
  });

  it('is written, changed and deleted by nobody through the API, whatever their role', async () => {
    const before = await historyOf(s.task);
    for (const p of [s.owner, s.admin, s.member, s.viewer, s.outsider]) {
      const forged = await p.client
        .from('task_history')
        .insert({ workspace_id: s.ws, task_id: s.task, kind: 'created', actor_id: p.id });
      expect(forged.error?.code).toBe('42501');
      const rewritten = await p.client.from('task_history').update({ kind: 'title' }).eq('task_id', s.task);
      expect(rewritten.error?.code).toBe('42501');
      const erased = await p.client.from('task_history').delete().eq('task_id', s.task);
      expect(erased.error?.code).toBe('42501');
      const called = await p.client.schema('private' as 'public').rpc(
        'record_task_history' as never,
        {
          ws: s.ws,
          task: s.task,
          kind: 'created',
          data: {},
        } as never,
      );
      expect(called.error).not.toBeNull();
    }
    const anon = await anonClient()
      .from('task_history')
      .insert({ workspace_id: s.ws, task_id: s.task, kind: 'created' });
    expect(anon.error?.code).toBe('42501');
    expect(await historyOf(s.task)).toEqual(before);
  });

  it('refuses a kind it does not know, even from the database’s own functions', async () => {
    await expect(
      sql("select private.record_task_history($1, $2, 'renamed', '{}')", [s.ws, s.task], {
        role: 'superuser',
      }),
    ).rejects.toThrow(/task_history_kind_check/);
  });
});
