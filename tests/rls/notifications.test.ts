// Notifications and watches under row-level security: a person reads, counts and marks only their
// own notifications, changes nothing in them but read_at and archived_at, and writes none; watches
// are one's own, on tasks of one's workspaces. (Preferences: notification-preferences.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { scene, type Scene } from '../support/scene.ts';

describe('notifications', () => {
  let s: Scene;
  let task: string;
  let graces: number;
  beforeAll(async () => {
    s = await scene();
    const made = await s.admin.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: s.project, title: 'Review the release' })
      .select('id')
      .single();
    expect(made.error).toBeNull();
    task = made.data!.id;
    // The admin assigns the member: the database tells the member.
    const { error } = await s.admin.client.from('tasks').update({ assignee_id: s.member.id }).eq('id', task);
    expect(error).toBeNull();
    const [row] = await sql<{ id: number }>(
      `select id::int as id from public.notifications where recipient_id = $1 and task_id = $2`,
      [s.member.id, task],
      { role: 'superuser' },
    );
    expect(row).toBeDefined();
    graces = row!.id;
  });

  it('are read, counted and marked by their recipient', async () => {
    const { data } = await s.member.client.from('notifications').select('id, kind').eq('task_id', task);
    expect(data).toEqual([{ id: graces, kind: 'assigned' }]);
    const marked = await s.member.client
      .from('notifications')
      .update({ read_at: new Date().toISOString() })
      .eq('id', graces)
      .select('id');
    expect(marked.data).toEqual([{ id: graces }]);
    const unread = await s.member.client
      .from('notifications')
      .update({ read_at: null })
      .eq('id', graces)
      .select('id');
    expect(unread.data).toEqual([{ id: graces }]);
  });

  it('are neither read, counted, marked, written nor deleted by anyone else', async () => {
    for (const other of [s.owner, s.admin, s.other, s.viewer, s.outsider]) {
      const read = await other.client.from('notifications').select('id').eq('id', graces);
      expect(read.data, 'read').toEqual([]);
      const counted = await other.client
        .from('notifications')
        .select('id', { count: 'exact', head: true })
        .eq('recipient_id', s.member.id);
      expect(counted.count, 'counted').toBe(0);
      const marked = await other.client
        .from('notifications')
        .update({ read_at: new Date().toISOString() })
        .eq('id', graces)
        .select('id');
      expect(marked.data, 'marked').toEqual([]);
      const forged = await other.client.from('notifications').insert({
        recipient_id: s.member.id,
        workspace_id: s.ws,
        kind: 'assigned',
      });
      expect(forged.error?.code, 'written').toBe('42501');
      const deleted = await other.client.from('notifications').delete().eq('id', graces);
      expect(deleted.error?.code, 'deleted').toBe('42501');
    }
    const anon = await anonClient().from('notifications').select('id');
    expect(anon.error?.code).toBe('42501');
    const [row] = await sql<{ read: boolean }>(
      'select read_at is not null as read from public.notifications where id = $1',
      [graces],
      { role: 'superuser' },
    );
    expect(row?.read).toBe(false);
  });

  it('change nothing but read_at and archived_at, even for their recipient', async () => {
    const moved = await s.member.client
      .from('notifications')
      .update({ recipient_id: s.other.id })
      .eq('id', graces);
    expect(moved.error?.code).toBe('42501');
    const reworded = await s.member.client
      .from('notifications')
      .update({ kind: 'mentioned' })
      .eq('id', graces);
    expect(reworded.error?.code).toBe('42501');
  });

  it('about a task in the trash are out of sight, uncounted and unchangeable until it is restored', async () => {
    const made = await s.admin.client
      .from('tasks')
      .insert({
        workspace_id: s.ws,
        project_id: s.project,
        title: 'Book the venue',
        assignee_id: s.member.id,
      })
      .select('id')
      .single();
    expect(made.error).toBeNull();
    const trashed = made.data!.id;
    const seen = async () =>
      (await s.member.client.from('notifications').select('id').eq('task_id', trashed)).data?.length;
    const count = async () => (await s.member.client.rpc('my_unread_notifications')).data;
    expect(await seen()).toBe(1);
    const before = await count();
    expect((await s.admin.client.rpc('trash_task', { task_id: trashed })).error).toBeNull();
    expect(await seen()).toBe(0);
    expect(await count()).toBe((before ?? 0) - 1);
    const marked = await s.member.client
      .from('notifications')
      .update({ read_at: new Date().toISOString() })
      .eq('task_id', trashed)
      .select('id');
    expect(marked.data).toEqual([]);
    expect((await s.admin.client.rpc('restore_task', { task_id: trashed })).error).toBeNull();
    expect(await seen()).toBe(1);
    expect(await count()).toBe(before);
  });
});

describe('watching', () => {
  let s: Scene;
  let task: string;
  beforeAll(async () => {
    s = await scene();
    const made = await s.admin.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: s.project, title: 'Plan the launch' })
      .select('id')
      .single();
    expect(made.error).toBeNull();
    task = made.data!.id;
  });

  it('is one’s own: a viewer watches a task, nobody else sees or ends it', async () => {
    const watched = await s.viewer.client
      .from('task_watchers')
      .insert({ task_id: task, user_id: s.viewer.id, workspace_id: s.ws });
    expect(watched.error).toBeNull();
    const theirs = await s.member.client.from('task_watchers').select('user_id').eq('task_id', task);
    expect(theirs.data).toEqual([]);
    const ended = await s.member.client
      .from('task_watchers')
      .delete()
      .eq('task_id', task)
      .eq('user_id', s.viewer.id)
      .select('user_id');
    expect(ended.data).toEqual([]);
    const mine = await s.viewer.client.from('task_watchers').select('user_id').eq('task_id', task);
    expect(mine.data).toEqual([{ user_id: s.viewer.id }]);
  });

  it('is refused for someone else, and for a task outside one’s workspaces', async () => {
    const forSomeoneElse = await s.member.client
      .from('task_watchers')
      .insert({ task_id: task, user_id: s.other.id, workspace_id: s.ws });
    expect(forSomeoneElse.error?.code).toBe('42501');
    const outside = await s.outsider.client
      .from('task_watchers')
      .insert({ task_id: task, user_id: s.outsider.id, workspace_id: s.ws });
    expect(outside.error?.code).toBe('42501');
  });
});
