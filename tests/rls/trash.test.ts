// The tasks' trash (SPEC sections 3 and 6): admins move a task there and take it back; nobody sets
// tasks.deleted_at through the API; a task in the trash, its comments, files and labels are hidden
// from everyone; the purge deletes it with its files' storage objects after 30 days, not before.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, backend } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { scene, type Person, type Scene } from '../support/scene.ts';

async function newTask(s: Scene, title: string): Promise<string> {
  const { data, error } = await s.member.client
    .from('tasks')
    .insert({ workspace_id: s.ws, project_id: s.project, title })
    .select('id')
    .single();
  if (error) throw error;
  return data.id;
}

/** A task with a comment, a file (row and storage object) and a label, as members make them. */
async function fullTask(s: Scene, title: string) {
  const task = await newTask(s, title);
  const comment = await s.member.client
    .from('comments')
    .insert({ workspace_id: s.ws, task_id: task, body: 'A comment' })
    .select('id')
    .single();
  if (comment.error) throw comment.error;
  const fileId = randomUUID();
  const path = `${s.ws}/${task}/${fileId}/notes.txt`;
  const stored = await s.member.client.storage
    .from('attachments')
    .upload(path, new TextEncoder().encode('notes'), { contentType: 'text/plain' });
  if (stored.error) throw stored.error;
  const row = await s.member.client.from('attachments').insert({
    id: fileId,
    workspace_id: s.ws,
    task_id: task,
    path,
    name: 'notes.txt',
    size: 5,
    content_type: 'text/plain',
  });
  if (row.error) throw row.error;
  const label = await s.admin.client
    .from('labels')
    .insert({ workspace_id: s.ws, name: `l-${fileId.slice(0, 8)}`, color: 'blue' })
    .select('id')
    .single();
  if (label.error) throw label.error;
  const labelled = await s.member.client
    .from('task_labels')
    .insert({ workspace_id: s.ws, task_id: task, label_id: label.data.id });
  if (labelled.error) throw labelled.error;
  return { task, comment: comment.data.id, file: fileId, path };
}

/** What each of a person's reads shows of the task. */
async function visible(p: Person, t: { task: string; comment: string; file: string; path: string }) {
  const [task, comments, files, labels, object] = await Promise.all([
    p.client.from('tasks').select('id').eq('id', t.task),
    p.client.from('comments').select('id').eq('task_id', t.task),
    p.client.from('attachments').select('id').eq('task_id', t.task),
    p.client.from('task_labels').select('label_id').eq('task_id', t.task),
    p.client.storage.from('attachments').download(t.path),
  ]);
  return {
    task: task.data?.length ?? 0,
    comments: comments.data?.length ?? 0,
    files: files.data?.length ?? 0,
    labels: labels.data?.length ?? 0,
    object: object.error ? 0 : 1,
  };
}

const ALL = { task: 1, comments: 1, files: 1, labels: 1, object: 1 };
const NONE = { task: 0, comments: 0, files: 0, labels: 0, object: 0 };

describe('the trash', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('takes tasks from admins and owners only; members, viewers and outsiders are refused', async () => {
    const task = await newTask(s, 'Keep me');
    for (const p of [s.member, s.viewer]) {
      const { error } = await p.client.rpc('trash_task', { task_id: task });
      expect(error?.code, p.email).toBe('42501');
    }
    // An outsider does not see the task at all.
    expect((await s.outsider.client.rpc('trash_task', { task_id: task })).error?.code).toBe('PT404');
    expect((await s.member.client.from('tasks').select('id').eq('id', task)).data).toEqual([{ id: task }]);
    for (const p of [s.admin, s.owner]) {
      const mine = await newTask(s, 'Trash me');
      const { data, error } = await p.client.rpc('trash_task', { task_id: mine });
      expect(error).toBeNull();
      expect(data).toMatchObject({ id: mine, project_id: s.project });
    }
  });

  it('is the only way a task leaves: nobody deletes one, or sets deleted_at or deleted_by, through REST', async () => {
    const task = await newTask(s, 'Stay');
    for (const p of [s.owner, s.admin, s.member, s.viewer, s.outsider]) {
      const deleted = await p.client.from('tasks').delete().eq('id', task).select('id');
      expect(deleted.error?.code, p.email).toBe('42501');
      const stamped = await p.client
        .from('tasks')
        .update({ deleted_at: new Date().toISOString() } as never)
        .eq('id', task)
        .select('id');
      expect(stamped.error?.code, p.email).toBe('42501');
      const by = await p.client
        .from('tasks')
        .update({ deleted_by: p.id } as never)
        .eq('id', task)
        .select('id');
      expect(by.error?.code, p.email).toBe('42501');
    }
    const born = await s.member.client.from('tasks').insert({
      workspace_id: s.ws,
      project_id: s.project,
      title: 'Born dead',
      deleted_at: new Date().toISOString(),
    } as never);
    expect(born.error?.code).toBe('42501');
    const [row] = await sql<{ deleted_at: Date | null }>(
      'select deleted_at from public.tasks where id = $1',
      [task],
      {
        role: 'superuser',
      },
    );
    expect(row?.deleted_at).toBeNull();
  });

  it('hides a trashed task, its comments, files and labels from everyone, admins included', async () => {
    const t = await fullTask(s, 'Hide me');
    expect(await visible(s.viewer, t)).toEqual(ALL);
    expect(await visible(s.outsider, t)).toEqual(NONE);
    expect((await s.admin.client.rpc('trash_task', { task_id: t.task })).error).toBeNull();
    for (const p of [s.owner, s.admin, s.member, s.viewer, s.outsider]) {
      expect(await visible(p, t), p.email).toEqual(NONE);
    }
    // Nor is it written to: no comment, no file, no edit, no move.
    const comment = await s.member.client
      .from('comments')
      .insert({ workspace_id: s.ws, task_id: t.task, body: 'Hello?' });
    expect(comment.error?.code).toBe('42501');
    const edit = await s.member.client.from('tasks').update({ title: 'Back?' }).eq('id', t.task).select('id');
    expect(edit).toMatchObject({ error: null, data: [] });
    // Nor found by search.
    const found = await s.member.client.rpc('search_tasks', { workspace_slug: s.slug, words: ['Hide'] });
    expect(found).toMatchObject({ error: null, data: [] });
  });

  it('lists its tasks to admins only, with who deleted them and when they go', async () => {
    const t = await newTask(s, 'Listed');
    await s.admin.client.rpc('trash_task', { task_id: t });
    const { data } = await s.owner.client.rpc('trashed_tasks', { workspace_id: s.ws });
    const row = data?.find((r: { id: string }) => r.id === t);
    expect(row).toMatchObject({ title: 'Listed', project_id: s.project, project_archived: false });
    expect(row?.deleted_by_name).toBeTruthy();
    const days = (Date.parse(row?.purge_at ?? '') - Date.parse(row?.deleted_at ?? '')) / 86_400_000;
    expect(days).toBe(30);
    for (const p of [s.member, s.viewer, s.outsider]) {
      expect((await p.client.rpc('trashed_tasks', { workspace_id: s.ws })).data, p.email).toEqual([]);
    }
  });

  it('gives a task back to an admin as it was: status, place, number, comments, files and labels', async () => {
    const t = await fullTask(s, 'Come back');
    const before = await s.member.client
      .from('tasks')
      .select('number, status_id, position')
      .eq('id', t.task)
      .single();
    await s.admin.client.rpc('trash_task', { task_id: t.task });
    for (const p of [s.member, s.viewer]) {
      expect((await p.client.rpc('restore_task', { task_id: t.task })).error?.code, p.email).toBe('42501');
    }
    expect((await s.outsider.client.rpc('restore_task', { task_id: t.task })).error?.code).toBe('PT409');
    const restored = await s.admin.client.rpc('restore_task', { task_id: t.task });
    expect(restored.error).toBeNull();
    expect(await visible(s.viewer, t)).toEqual(ALL);
    const after = await s.member.client
      .from('tasks')
      .select('number, status_id, position')
      .eq('id', t.task)
      .single();
    expect(after.data).toEqual(before.data);
    // Its history says who took it away and who brought it back (written by the database).
    const history = await s.viewer.client
      .from('task_history')
      .select('kind, actor_id')
      .eq('task_id', t.task)
      .in('kind', ['deleted', 'restored'])
      .order('id');
    expect(history.data).toEqual([
      { kind: 'deleted', actor_id: s.admin.id },
      { kind: 'restored', actor_id: s.admin.id },
    ]);
    // Restoring twice says it is no longer in the trash.
    const again = await s.admin.client.rpc('restore_task', { task_id: t.task });
    expect(again.error).toMatchObject({
      code: 'PT409',
      message: expect.stringMatching(/no longer in the trash/),
    });
  });

  it('does not restore into an archived project, and says why', async () => {
    const c = await scene();
    const t = await newTask(c, 'Archived later');
    await c.admin.client.rpc('trash_task', { task_id: t });
    const archived = await c.admin.client
      .from('projects')
      .update({ archived_at: new Date().toISOString() })
      .eq('id', c.project);
    expect(archived.error).toBeNull();
    const refused = await c.admin.client.rpc('restore_task', { task_id: t });
    expect(refused.error).toMatchObject({ code: 'PT409', message: expect.stringMatching(/archived/) });
    const [row] = await sql<{ deleted_at: Date | null }>(
      'select deleted_at from public.tasks where id = $1',
      [t],
      {
        role: 'superuser',
      },
    );
    expect(row?.deleted_at).not.toBeNull();
    // Nor does a task of an archived project go to the trash.
    expect((await c.admin.client.rpc('trash_task', { task_id: c.task })).error?.code).toBe('PT409');
  });

  it('keeps a trashed task’s activity out of the log, and lets its status be deleted', async () => {
    const c = await scene();
    const t = await newTask(c, 'Quiet while away');
    const activity = () => c.viewer.client.from('activity').select('kind').eq('task_id', t);
    expect((await activity()).data).toEqual([{ kind: 'task_created' }]);
    await c.admin.client.rpc('trash_task', { task_id: t });
    expect((await activity()).data).toEqual([]);
    // Its status (To do, the new task's) goes, its visible tasks moving to Backlog as asked; the
    // trashed one moves too, and comes back there.
    const [todo] = await sql<{ id: string }>('select status_id as id from public.tasks where id = $1', [t], {
      role: 'superuser',
    });
    const [backlog] = await sql<{ id: string }>(
      "select id from public.project_statuses where project_id = $1 and name = 'Backlog'",
      [c.project],
      { role: 'superuser' },
    );
    const deleted = await c.admin.client.rpc('delete_project_status', {
      status_id: todo?.id,
      move_to: backlog?.id,
    });
    expect(deleted.error).toBeNull();
    expect((await c.admin.client.rpc('restore_task', { task_id: t })).error).toBeNull();
    const back = await c.member.client.from('tasks').select('status_id').eq('id', t).single();
    expect(back.data?.status_id).not.toBe(todo?.id);
    // Back with its entries, the move off the deleted status among them.
    expect((await activity()).data).toEqual(
      expect.arrayContaining([{ kind: 'task_created' }, { kind: 'task_moved' }]),
    );
  });

  it('is purged after 30 days with its comments and files’ storage objects, and not before', async () => {
    const service = adminClient();
    const young = await fullTask(s, 'Twenty-nine days');
    const old = await fullTask(s, 'Thirty-one days');
    for (const t of [young, old]) await s.admin.client.rpc('trash_task', { task_id: t.task });
    await sql("update public.tasks set deleted_at = now() - interval '29 days' where id = $1", [young.task], {
      role: 'superuser',
    });
    await sql("update public.tasks set deleted_at = now() - interval '31 days' where id = $1", [old.task], {
      role: 'superuser',
    });
    // Only the service role purges.
    expect((await s.owner.client.rpc('purge_trash', {})).error?.code).toBe('42501');
    const purged = await service.rpc('purge_trash', {});
    expect(purged.error).toBeNull();
    const rows = await sql<{ id: string }>(
      `select id from public.tasks where id = any ($1)
       union all select task_id from public.comments where task_id = any ($1)
       union all select task_id from public.attachments where task_id = any ($1)`,
      [[young.task, old.task]],
      { role: 'superuser' },
    );
    expect(rows.filter((r) => r.id === old.task)).toEqual([]);
    expect(rows.filter((r) => r.id === young.task)).toHaveLength(3);
    // The old task's file is queued for the storage trash; the young one's is not.
    const { data: queued } = await service.rpc('storage_trash', { max_items: 1000 });
    expect(queued).toContainEqual({ bucket_id: 'attachments', name: old.path });
    expect(queued).not.toContainEqual({ bucket_id: 'attachments', name: young.path });
  });

  it('is emptied by the purge-trash Edge Function, storage objects too; only the service role calls it', async () => {
    const service = adminClient();
    const gone = await fullTask(s, 'Long gone');
    await s.admin.client.rpc('trash_task', { task_id: gone.task });
    await sql("update public.tasks set deleted_at = now() - interval '31 days' where id = $1", [gone.task], {
      role: 'superuser',
    });
    const { apiUrl, serviceRoleKey } = backend();
    const asOwner = await s.owner.client.functions.invoke('purge-trash', { body: {} });
    expect((asOwner.error as { context?: Response } | null)?.context?.status).toBe(403);
    expect((await service.storage.from('attachments').download(gone.path)).error).toBeNull();

    // As pg_net sends it from pg_cron on a hosted project (and the local scheduler here).
    const res = await fetch(`${apiUrl}/functions/v1/purge-trash`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { tasks: number; files: number };
    expect(answer.tasks).toBeGreaterThanOrEqual(1);
    expect(answer.files).toBeGreaterThanOrEqual(1);
    const left = await sql('select 1 from public.tasks where id = $1', [gone.task], { role: 'superuser' });
    expect(left).toEqual([]);
    expect((await service.storage.from('attachments').download(gone.path)).error).not.toBeNull();
    const { data: queued } = await service.rpc('storage_trash', { max_items: 1000 });
    expect(queued).not.toContainEqual({ bucket_id: 'attachments', name: gone.path });
  });
});
