// RLS on comments and the activity log (SPEC sections 3 and 6).
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/db.ts';
import { scene, type Person, type Scene, defaultStatuses } from '../support/scene.ts';

const comment = (p: Person, s: Scene, body: string) =>
  p.client
    .from('comments')
    .insert({ workspace_id: s.ws, task_id: s.task, body })
    .select('id, edited_at')
    .single();

describe('comments', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('are written by members, read by every member, and by nobody else', async () => {
    const { data, error } = await comment(s.member, s, 'First!');
    expect(error).toBeNull();
    expect((await comment(s.viewer, s, 'Viewer says')).error?.code).toBe('42501');
    expect((await comment(s.outsider, s, 'Outsider says')).error?.code).toBe('42501');
    expect(
      (
        await s.viewer.client
          .from('comments')
          .select('body')
          .eq('id', data?.id ?? '')
      ).data,
    ).toEqual([{ body: 'First!' }]);
    expect((await s.outsider.client.from('comments').select('body').eq('task_id', s.task)).data).toEqual([]);
    const forged = await s.member.client
      .from('comments')
      .insert({ workspace_id: s.ws, task_id: s.task, body: 'As someone else', author_id: s.other.id });
    expect(forged.error?.code).toBe('42501');
    expect((await comment(s.member, s, ' '.repeat(3))).error?.code).toBe('23514');
    expect((await comment(s.member, s, 'x'.repeat(5001))).error?.code).toBe('23514');
  });

  it('are edited by their author only, who sees when', async () => {
    const { data } = await comment(s.member, s, 'Tpyo');
    const id = data?.id ?? '';
    expect(data?.edited_at).toBeNull();
    for (const p of [s.other, s.admin, s.owner]) {
      expect(
        (await p.client.from('comments').update({ body: 'Not yours' }).eq('id', id).select('id')).data,
      ).toEqual([]);
    }
    const edited = await s.member.client
      .from('comments')
      .update({ body: 'Typo' })
      .eq('id', id)
      .select('body, edited_at')
      .single();
    expect(edited.data?.body).toBe('Typo');
    expect(edited.data?.edited_at).not.toBeNull();
  });

  it('are deleted by their author or an admin, not by other members or viewers', async () => {
    const { data: mine } = await comment(s.member, s, 'Delete me myself');
    const { data: theirs } = await comment(s.member, s, 'An admin removes this');
    for (const p of [s.other, s.viewer, s.outsider]) {
      expect(
        (
          await p.client
            .from('comments')
            .delete()
            .eq('id', mine?.id ?? '')
            .select('id')
        ).data ?? [],
      ).toEqual([]);
    }
    expect(
      (
        await s.member.client
          .from('comments')
          .delete()
          .eq('id', mine?.id ?? '')
          .select('id')
      ).data,
    ).toEqual([{ id: mine?.id }]);
    expect(
      (
        await s.admin.client
          .from('comments')
          .delete()
          .eq('id', theirs?.id ?? '')
          .select('id')
      ).data,
    ).toEqual([{ id: theirs?.id }]);
  });

  it('cannot be added in an archived project', async () => {
    const archived = await scene();
    await archived.admin.client
      .from('projects')
      .update({ archived_at: new Date().toISOString() })
      .eq('id', archived.project);
    expect((await comment(archived.member, archived, 'Too late')).error?.code).toBe('42501');
  });
});

describe('activity', () => {
  it('records what happens, for members to read and nobody to write', async () => {
    const s = await scene();
    const { done } = await defaultStatuses(s.project);
    await s.member.client.rpc('move_task', { task_id: s.task, status_id: done });
    await s.member.client.from('tasks').update({ assignee_id: s.other.id }).eq('id', s.task);
    await comment(s.member, s, 'Done and dusted');
    const { data } = await s.viewer.client
      .from('activity')
      .select('kind, actor_id, data, project_id, task_id')
      .eq('workspace_id', s.ws)
      .order('id');
    const kinds = data?.map((a) => a.kind) ?? [];
    expect(kinds).toEqual(
      expect.arrayContaining([
        'member_joined',
        'project_created',
        'task_created',
        'task_moved',
        'task_assigned',
        'comment_added',
      ]),
    );
    // Every entry about the task names its project too (the overview builds WEB-12 from it).
    for (const entry of data?.filter((a) => a.task_id === s.task) ?? []) {
      expect(entry, entry.kind).toMatchObject({ project_id: s.project });
    }
    expect(data?.find((a) => a.kind === 'comment_added')).toMatchObject({ project_id: s.project });
    const moved = data?.find((a) => a.kind === 'task_moved');
    expect(moved).toMatchObject({
      actor_id: s.member.id,
      // The columns as they were named then.
      data: { from: 'To do', to: 'Done', title: 'Ship it' },
    });
    expect((await s.outsider.client.from('activity').select('id').eq('workspace_id', s.ws)).data).toEqual([]);
    const forged = await s.owner.client.from('activity').insert({ workspace_id: s.ws, kind: 'task_created' });
    expect(forged.error?.code).toBe('42501');
    const erased = await s.owner.client.from('activity').delete().eq('workspace_id', s.ws);
    expect(erased.error?.code).toBe('42501');
    for (const p of [s.owner, s.admin, s.member, s.viewer, s.outsider]) {
      const rewritten = await p.client
        .from('activity')
        .update({ kind: 'task_created' })
        .eq('workspace_id', s.ws)
        .select('id');
      expect(rewritten.error?.code).toBe('42501');
    }
    const after = await s.viewer.client.from('activity').select('kind').eq('workspace_id', s.ws).order('id');
    expect(after.data?.map((a) => a.kind)).toEqual(kinds);
  });

  it('does not stand in the way of deleting a whole workspace', async () => {
    const s = await scene();
    await comment(s.member, s, 'Soon gone');
    const { data, error } = await s.owner.client.from('workspaces').delete().eq('id', s.ws).select('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: s.ws }]);
    const left = await sql<{ n: string }>(
      `select (select count(*) from public.projects where workspace_id = $1)
            + (select count(*) from public.tasks where workspace_id = $1)
            + (select count(*) from public.comments where workspace_id = $1)
            + (select count(*) from public.activity where workspace_id = $1) as n`,
      [s.ws],
    );
    expect(Number(left[0]?.n)).toBe(0);
  });
});
