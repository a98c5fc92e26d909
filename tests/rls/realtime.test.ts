// Who hears which row changes over realtime, subscribed exactly as the app's task panel subscribes (app/components/live.tsx, useLiveTask): comments reach the
// workspace's members and nobody else; a member removed while subscribed hears nothing from then on;
// an AAL1 session of a user with a verified factor hears nothing that the same user's AAL2 session
// hears.
//
// Hearing nothing is shown without waiting a fixed time. Each change is first heard by a witness
// who may see it: the local realtime hands a change to every subscriber in one pass before the next
// one (emulator/realtime/changes.ts), so by then any frame meant for the others is on its way on
// their sockets. A broadcast each of them then sends to itself comes back behind that frame, on the
// same socket: once it is back, whatever was coming has come.
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addFactor } from '../support/authenticator.ts';
import { listening } from '../support/realtime.ts';
import { addMember, person, scene, signedInClient, type Person, type Scene } from '../support/scene.ts';
import { until } from '../support/until.ts';

interface Heard {
  table: string;
  eventType: string;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
}

const opened: Array<{ client: SupabaseClient; channel: RealtimeChannel }> = [];
const loopbacks = new Map<SupabaseClient, { channel: RealtimeChannel; back: Set<string> }>();

// Each test leaves with its channels: a client hands back the channel it has for a topic, and a
// joined one takes no more bindings.
afterEach(async () => {
  for (const { client, channel } of opened.splice(0)) await client.removeChannel(channel);
  loopbacks.clear();
});

/**
 * The task panel's channel: the task's comments (deletes unfiltered, as they carry only the key), the
 * task, the labels on it, its workspace's labels (their deletes unfiltered too), and its new history
 * entries.
 */
async function listenLikeTheTaskPanel(
  client: SupabaseClient,
  taskId: string,
  workspaceId: string,
): Promise<Heard[]> {
  const heard: Heard[] = [];
  const push = (payload: Heard) => heard.push(payload);
  const channel = client
    .channel(`task:${taskId}`)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'comments', filter: `task_id=eq.${taskId}` },
      push,
    )
    .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'comments' }, push)
    .on(
      'postgres_changes',
      { event: 'UPDATE', schema: 'public', table: 'tasks', filter: `id=eq.${taskId}` },
      push,
    )
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'task_labels', filter: `task_id=eq.${taskId}` },
      push,
    )
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'labels', filter: `workspace_id=eq.${workspaceId}` },
      push,
    )
    .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'labels' }, push)
    .on(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'task_history', filter: `task_id=eq.${taskId}` },
      push,
    );
  opened.push({ client, channel });
  await listening(channel);
  return heard;
}

/**
 * The board's changes as the board subscribes to them (app/components/live.tsx): tasks of one
 * project, labels put on its workspace's tasks and its labels (their deletes unfiltered, as they carry
 * only the key).
 */
async function listenLikeTheBoard(
  client: SupabaseClient,
  projectId: string,
  workspaceId: string,
): Promise<Heard[]> {
  const heard: Heard[] = [];
  const push = (payload: Heard) => heard.push(payload);
  const channel = client
    .channel(`board-changes-${randomUUID()}`)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'tasks', filter: `project_id=eq.${projectId}` },
      push,
    )
    .on(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'task_labels', filter: `workspace_id=eq.${workspaceId}` },
      push,
    )
    .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'task_labels' }, push)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'labels', filter: `workspace_id=eq.${workspaceId}` },
      push,
    )
    .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'labels' }, push);
  opened.push({ client, channel });
  await listening(channel);
  return heard;
}

/** Returns once everything the server sent this client's socket before now has been handled. */
async function drained(client: SupabaseClient): Promise<void> {
  let loopback = loopbacks.get(client);
  if (!loopback) {
    const back = new Set<string>();
    const channel = client
      .channel(`loopback-${randomUUID()}`, { config: { broadcast: { self: true } } })
      .on('broadcast', { event: 'ping' }, ({ payload }: { payload: { id: string } }) => back.add(payload.id));
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') resolve();
        else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(status));
      }),
    );
    opened.push({ client, channel });
    loopbacks.set(client, (loopback = { channel, back }));
  }
  const id = randomUUID();
  expect(await loopback.channel.send({ type: 'broadcast', event: 'ping', payload: { id } })).toBe('ok');
  const { back } = loopback;
  await until('the loopback broadcast', () => (back.has(id) ? true : undefined));
}

const commentsIn = (heard: Heard[], body: string) =>
  heard.filter((h) => h.table === 'comments' && JSON.stringify(h).includes(body));

async function comment(p: Person, s: Scene, body: string): Promise<string> {
  const { data, error } = await p.client
    .from('comments')
    .insert({ workspace_id: s.ws, task_id: s.task, body })
    .select('id')
    .single();
  if (error) throw error;
  return data.id;
}

describe('comments over realtime', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('reach members subscribed as the task panel is, and no outsider: an edit neither, a delete only by its key', async () => {
    const viewer = await listenLikeTheTaskPanel(s.viewer.client, s.task, s.ws);
    const outsider = await listenLikeTheTaskPanel(s.outsider.client, s.task, s.ws);

    const body = `Members only ${randomUUID()}`;
    const id = await comment(s.member, s, body);
    const inserted = await until('the viewer to hear the comment', () => commentsIn(viewer, body)[0]);
    expect(inserted).toMatchObject({ eventType: 'INSERT', new: { id, body, task_id: s.task } });

    const edited = `${body} (edited)`;
    const update = await s.member.client.from('comments').update({ body: edited }).eq('id', id);
    expect(update.error).toBeNull();
    await until('the viewer to hear the edit', () => commentsIn(viewer, edited)[0]);

    const removed = await s.member.client.from('comments').delete().eq('id', id).select('id');
    expect(removed.data).toHaveLength(1);
    await until('the viewer to hear the delete', () =>
      viewer.find((h) => h.eventType === 'DELETE' && h.old.id === id),
    );

    await drained(s.outsider.client);
    // Realtime checks no policy on a delete (upstream neither): the key goes to every subscriber of
    // the table's deletes, and nothing else of the row.
    expect(outsider.filter((h) => h.table === 'comments')).toEqual([
      expect.objectContaining({ eventType: 'DELETE', old: { id }, new: {} }),
    ]);
    expect(JSON.stringify(outsider)).not.toContain('Members only');
  });

  it('stop reaching a member removed while subscribed, on the task panel and on the board', async () => {
    const panel = await listenLikeTheTaskPanel(s.other.client, s.task, s.ws);
    const board = await listenLikeTheBoard(s.other.client, s.project, s.ws);
    const witnessPanel = await listenLikeTheTaskPanel(s.viewer.client, s.task, s.ws);
    const witnessBoard = await listenLikeTheBoard(s.viewer.client, s.project, s.ws);

    // Subscribed and hearing, while a member.
    const before = `Before ${randomUUID()}`;
    await comment(s.member, s, before);
    await until('the member to hear the comment', () => commentsIn(panel, before)[0]);

    const removal = await s.admin.client
      .from('workspace_members')
      .delete()
      .eq('workspace_id', s.ws)
      .eq('user_id', s.other.id)
      .select('user_id');
    expect(removal.data).toHaveLength(1);

    const after = `After ${randomUUID()}`;
    await comment(s.member, s, after);
    const retitled = `Retitled ${randomUUID()}`;
    expect(
      (await s.member.client.from('tasks').update({ title: retitled }).eq('id', s.task)).error,
    ).toBeNull();
    await until('the viewer to hear the comment', () => commentsIn(witnessPanel, after)[0]);
    await until(
      'the viewer to hear the task',
      () =>
        witnessBoard.find((h) => h.new.title === retitled) &&
        witnessPanel.find((h) => h.new.title === retitled),
    );

    await drained(s.other.client);
    expect(commentsIn(panel, after)).toEqual([]);
    expect(JSON.stringify(panel)).not.toContain(retitled);
    expect(JSON.stringify(board)).not.toContain(retitled);
  });
});

describe('task history over realtime', () => {
  it('reaches members subscribed as the task panel is, viewers included, and no outsider', async () => {
    const s = await scene();
    const viewer = await listenLikeTheTaskPanel(s.viewer.client, s.task, s.ws);
    const outsider = await listenLikeTheTaskPanel(s.outsider.client, s.task, s.ws);
    const title = `Renamed ${randomUUID()}`;
    expect((await s.member.client.from('tasks').update({ title }).eq('id', s.task)).error).toBeNull();
    const entry = await until('the viewer to hear the history entry', () =>
      viewer.find((h) => h.table === 'task_history' && JSON.stringify(h.new).includes(title)),
    );
    expect(entry).toMatchObject({
      eventType: 'INSERT',
      new: { task_id: s.task, kind: 'title', actor_id: s.member.id, data: { from: 'Ship it', to: title } },
    });
    await drained(s.outsider.client);
    expect(outsider.filter((h) => h.table === 'task_history')).toEqual([]);
    expect(JSON.stringify(outsider)).not.toContain(title);
  });
});

describe('a project’s statuses over realtime', () => {
  it('reach every member with the board open when one is renamed or moved, and no outsider', async () => {
    const s = await scene();
    const listen = async (client: SupabaseClient) => {
      const heard: Heard[] = [];
      const channel = client
        .channel(`board-statuses-${randomUUID()}`)
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'project_statuses', filter: `project_id=eq.${s.project}` },
          (payload: Heard) => heard.push(payload),
        );
      opened.push({ client, channel });
      await listening(channel);
      return heard;
    };
    const viewer = await listen(s.viewer.client);
    const outsider = await listen(s.outsider.client);
    const { data: todo } = await s.admin.client
      .from('project_statuses')
      .select('id')
      .eq('project_id', s.project)
      .eq('name', 'To do')
      .single();
    const renamed = await s.admin.client
      .from('project_statuses')
      .update({ name: 'Ready' })
      .eq('id', todo?.id);
    expect(renamed.error).toBeNull();
    await until('the viewer to hear the rename', () =>
      viewer.find((h) => h.eventType === 'UPDATE' && h.new.name === 'Ready'),
    );
    const moved = await s.admin.client.rpc('move_project_status', { status_id: todo?.id, to_index: 0 });
    expect(moved.error).toBeNull();
    await until('the viewer to hear the move', () =>
      viewer.find(
        (h) => h.eventType === 'UPDATE' && h.new.id === todo?.id && Number(h.new.position) === 1024,
      ),
    );
    await drained(s.outsider.client);
    expect(outsider).toEqual([]);
  });
});

describe('labels over realtime', () => {
  it('reach members subscribed as the task panel is, and no outsider but for the keys of deletes', async () => {
    const s = await scene();
    const viewer = await listenLikeTheTaskPanel(s.viewer.client, s.task, s.ws);
    const outsider = await listenLikeTheTaskPanel(s.outsider.client, s.task, s.ws);
    const name = `Secret ${randomUUID().slice(0, 8)}`;
    const { data: label, error } = await s.admin.client
      .from('labels')
      .insert({ workspace_id: s.ws, name, color: 'red' })
      .select('id')
      .single();
    expect(error).toBeNull();
    const id = label?.id ?? '';
    await until('the viewer to hear the new label', () =>
      viewer.find((h) => h.table === 'labels' && h.new.id === id),
    );

    const on = await s.member.client
      .from('task_labels')
      .insert({ task_id: s.task, label_id: id, workspace_id: s.ws });
    expect(on.error).toBeNull();
    await until('the viewer to hear the label put on', () =>
      viewer.find((h) => h.table === 'task_labels' && h.eventType === 'INSERT' && h.new.label_id === id),
    );
    const renamed = `${name} (renamed)`;
    expect((await s.admin.client.from('labels').update({ name: renamed }).eq('id', id)).error).toBeNull();
    await until('the viewer to hear the rename', () => viewer.find((h) => h.new.name === renamed));

    const off = await s.member.client.from('task_labels').delete().eq('task_id', s.task).eq('label_id', id);
    expect(off.error).toBeNull();
    // A delete carries the key, which holds the task: the panel's filter finds it.
    await until('the viewer to hear the label taken off', () =>
      viewer.find((h) => h.table === 'task_labels' && h.eventType === 'DELETE' && h.old.label_id === id),
    );
    expect((await s.admin.client.from('labels').delete().eq('id', id)).error).toBeNull();
    await until('the viewer to hear the label deleted', () =>
      viewer.find((h) => h.table === 'labels' && h.eventType === 'DELETE' && h.old.id === id),
    );

    await drained(s.outsider.client);
    expect(outsider.every((h) => h.eventType === 'DELETE')).toBe(true);
    expect(JSON.stringify(outsider)).not.toContain('Secret');
  });

  it('reach members subscribed as the board is when one is put on a task, and no outsider', async () => {
    const s = await scene();
    const viewer = await listenLikeTheBoard(s.viewer.client, s.project, s.ws);
    const outsider = await listenLikeTheBoard(s.outsider.client, s.project, s.ws);
    const name = `Secret ${randomUUID().slice(0, 8)}`;
    const { data: label, error } = await s.admin.client
      .from('labels')
      .insert({ workspace_id: s.ws, name, color: 'teal' })
      .select('id')
      .single();
    expect(error).toBeNull();
    const id = label?.id ?? '';
    const on = await s.member.client.rpc('set_task_labels', { task_id: s.task, label_ids: [id] });
    expect(on.error).toBeNull();
    await until('the viewer to hear the label put on', () =>
      viewer.find(
        (h) =>
          h.table === 'task_labels' &&
          h.eventType === 'INSERT' &&
          h.new.label_id === id &&
          h.new.task_id === s.task,
      ),
    );
    const recoloured = await s.admin.client.from('labels').update({ color: 'pink' }).eq('id', id);
    expect(recoloured.error).toBeNull();
    await until('the viewer to hear the recolour', () =>
      viewer.find((h) => h.table === 'labels' && h.eventType === 'UPDATE' && h.new.color === 'pink'),
    );

    await drained(s.outsider.client);
    expect(outsider.filter((h) => h.eventType !== 'DELETE')).toEqual([]);
    expect(JSON.stringify(outsider)).not.toContain('Secret');
  });
});

describe('an AAL1 session of a user with a verified factor', () => {
  it('hears no comment and no task change that the same user hears at AAL2', async () => {
    const s = await scene();
    const user = await person('rt-aal');
    const aal2 = user.client;
    await addMember(s.ws, user.id, 'member');
    await addFactor(aal2);
    const aal1 = await signedInClient(user.email, user.password);
    const { data: level } = await aal1.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    const atAal1 = await listenLikeTheTaskPanel(aal1, s.task, s.ws);
    const boardAtAal1 = await listenLikeTheBoard(aal1, s.project, s.ws);
    const atAal2 = await listenLikeTheTaskPanel(aal2, s.task, s.ws);

    const body = `Second factor ${randomUUID()}`;
    await comment(s.member, s, body);
    const retitled = `Retitled ${randomUUID()}`;
    expect(
      (await s.member.client.from('tasks').update({ title: retitled }).eq('id', s.task)).error,
    ).toBeNull();
    await until('the AAL2 session to hear the comment', () => commentsIn(atAal2, body)[0]);
    await until('the AAL2 session to hear the task', () => atAal2.find((h) => h.new.title === retitled));

    await drained(aal1);
    expect(atAal1).toEqual([]);
    expect(boardAtAal1).toEqual([]);
  });
});
