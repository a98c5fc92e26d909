// What notifies whom (SPEC: notifications), written by the database's triggers in the same
// transaction as the change: assigned, mentioned, commented, status_changed and added_to_workspace,
// each exactly once to each person it concerns, never to whoever did it, never to a non-member, and
// never twice for one change; watching begins by itself for a task's creator, assignee and the people
// mentioned in it; leaving a workspace takes a person's notifications and watches there with them.
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/db.ts';
import { defaultStatuses, person, scene, type Person, type Scene } from '../support/scene.ts';

interface Row {
  id: number;
  recipient_id: string;
  actor_id: string | null;
  kind: string;
  task_id: string | null;
  comment_id: string | null;
  data: Record<string, unknown>;
  archived: boolean;
}

const all = () =>
  sql<Row>(
    `select id::int as id, recipient_id, actor_id, kind, task_id, comment_id, data,
            archived_at is not null as archived
       from public.notifications order by id`,
    [],
    { role: 'superuser' },
  );

/** The notifications written while `act` ran (any workspace's: a test sees every one it causes). */
async function written(act: () => PromiseLike<unknown>): Promise<Row[]> {
  const [{ max } = { max: 0 }] = await sql<{ max: number }>(
    'select coalesce(max(id), 0)::int as max from public.notifications',
    [],
    { role: 'superuser' },
  );
  await act();
  return (await all()).filter((n) => n.id > max);
}

/** Fails on a refusal, so a broken step is not mistaken for "nothing written". */
async function ok<T>(result: PromiseLike<{ error: unknown; data: T }>): Promise<T> {
  const { error, data } = await result;
  if (error) throw new Error(`refused: ${JSON.stringify(error)}`);
  return data;
}

const watchersOf = async (task: string) =>
  (
    await sql<{ user_id: string }>('select user_id from public.task_watchers where task_id = $1', [task], {
      role: 'superuser',
    })
  )
    .map((r) => r.user_id)
    .sort();

const rename = (p: Person, name: string) =>
  sql('update public.profiles set display_name = $2 where id = $1', [p.id, name]);

/** Who got what, in a comparable order. */
const summary = (rows: Row[]) =>
  rows
    .map((r) => ({ to: r.recipient_id, kind: r.kind, by: r.actor_id }))
    .sort((a, b) => `${a.to}${a.kind}`.localeCompare(`${b.to}${b.kind}`));

async function newTask(s: Scene, by: Person, fields: Record<string, unknown> = {}): Promise<string> {
  const data = await ok(
    by.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: s.project, title: 'Write the docs', ...fields })
      .select('id')
      .single(),
  );
  return (data as { id: string }).id;
}

const comment = (s: Scene, by: Person, task: string, body: string) =>
  ok(by.client.from('comments').insert({ workspace_id: s.ws, task_id: task, body }).select('id').single());

describe('notifications', () => {
  let s: Scene;
  let ref: string;
  beforeAll(async () => {
    s = await scene();
    await Promise.all([
      rename(s.owner, 'Oli Owner'),
      rename(s.admin, 'Ada Lovelace'),
      rename(s.member, 'Grace Hopper'),
      rename(s.other, 'Margaret Hamilton'),
      rename(s.viewer, 'Vera Viewer'),
      rename(s.outsider, 'Zed Outsider'),
    ]);
    const [project] = await sql<{ key: string }>('select key from public.projects where id = $1', [
      s.project,
    ]);
    ref = `${project?.key}-`;
  });

  it('tell the new assignee, with the task’s reference and title, and never someone who assigns themselves', async () => {
    const task = await newTask(s, s.member);
    const rows = await written(() =>
      ok(s.admin.client.from('tasks').update({ assignee_id: s.other.id }).eq('id', task)),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        recipient_id: s.other.id,
        actor_id: s.admin.id,
        kind: 'assigned',
        task_id: task,
        data: { task: { ref: expect.stringMatching(new RegExp(`^${ref}\\d+$`)), title: 'Write the docs' } },
        archived: false,
      }),
    ]);
    expect(await watchersOf(task)).toEqual([s.member.id, s.other.id].sort());
    expect(
      await written(() =>
        ok(s.member.client.from('tasks').update({ assignee_id: s.member.id }).eq('id', task)),
      ),
    ).toEqual([]);
    // Unassigning tells nobody.
    expect(
      await written(() => ok(s.admin.client.from('tasks').update({ assignee_id: null }).eq('id', task))),
    ).toEqual([]);
  });

  it('tell the assignee of a new task, and whoever its description mentions, once each', async () => {
    let task = '';
    const rows = await written(async () => {
      task = await newTask(s, s.admin, {
        assignee_id: s.other.id,
        description: 'For @margaret and @grace, cc @Ada and @zed',
      });
    });
    expect(summary(rows)).toEqual(
      summary([
        { recipient_id: s.other.id, kind: 'assigned', actor_id: s.admin.id },
        { recipient_id: s.member.id, kind: 'mentioned', actor_id: s.admin.id },
      ] as Row[]),
    );
    expect(rows.find((r) => r.kind === 'mentioned')?.data).toMatchObject({
      excerpt: 'For @margaret and @grace, cc @Ada and @zed',
    });
    expect(await watchersOf(task)).toEqual([s.admin.id, s.member.id, s.other.id].sort());
  });

  it('tell only the people an edited description newly mentions', async () => {
    const task = await newTask(s, s.admin, { description: 'Ask @grace' });
    const rows = await written(() =>
      ok(
        s.admin.client
          .from('tasks')
          .update({ description: 'Ask @grace and @VeraViewer and @vera.' })
          .eq('id', task),
      ),
    );
    expect(summary(rows)).toEqual(
      summary([{ recipient_id: s.viewer.id, kind: 'mentioned', actor_id: s.admin.id }] as Row[]),
    );
    // The same description again, or one that mentions fewer, tells nobody.
    expect(
      await written(() =>
        ok(s.admin.client.from('tasks').update({ description: 'Ask @grace' }).eq('id', task)),
      ),
    ).toEqual([]);
  });

  it('tell a task’s watchers it moved, from which status to which, but not the mover', async () => {
    const { todo, in_progress } = await defaultStatuses(s.project);
    const task = await newTask(s, s.member, { assignee_id: s.other.id, status_id: todo });
    const rows = await written(() =>
      ok(s.admin.client.rpc('move_task', { task_id: task, status_id: in_progress })),
    );
    expect(summary(rows)).toEqual(
      summary([
        { recipient_id: s.member.id, kind: 'status_changed', actor_id: s.admin.id },
        { recipient_id: s.other.id, kind: 'status_changed', actor_id: s.admin.id },
      ] as Row[]),
    );
    expect(rows[0]?.data).toMatchObject({ from: 'To do', to: 'In progress' });
    const byWatcher = await written(() =>
      ok(s.member.client.rpc('move_task', { task_id: task, status_id: todo })),
    );
    expect(summary(byWatcher)).toEqual(
      summary([{ recipient_id: s.other.id, kind: 'status_changed', actor_id: s.member.id }] as Row[]),
    );
  });

  it('tell someone assigned and moved in one change once, that they were assigned', async () => {
    const { done } = await defaultStatuses(s.project);
    const task = await newTask(s, s.member);
    await ok(s.member.client.from('tasks').update({ assignee_id: s.other.id }).eq('id', task));
    await ok(s.member.client.from('tasks').update({ assignee_id: null }).eq('id', task));
    // Margaret watches (she was assigned once); now assigned again and moved at once.
    const rows = await written(() =>
      ok(s.admin.client.from('tasks').update({ assignee_id: s.other.id, status_id: done }).eq('id', task)),
    );
    expect(summary(rows)).toEqual(
      summary([
        { recipient_id: s.other.id, kind: 'assigned', actor_id: s.admin.id },
        { recipient_id: s.member.id, kind: 'status_changed', actor_id: s.admin.id },
      ] as Row[]),
    );
  });

  it('tell watchers of a comment, and the people it mentions once that they were mentioned', async () => {
    const task = await newTask(s, s.member, { assignee_id: s.other.id });
    let id = '';
    const rows = await written(async () => {
      const made = await comment(s, s.admin, task, 'Done? @grace @grace @Grace-Hopper');
      id = (made as { id: string }).id;
    });
    expect(summary(rows)).toEqual(
      summary([
        { recipient_id: s.member.id, kind: 'mentioned', actor_id: s.admin.id },
        { recipient_id: s.other.id, kind: 'commented', actor_id: s.admin.id },
      ] as Row[]),
    );
    for (const r of rows) {
      expect(r.comment_id).toBe(id);
      expect(r.data).toMatchObject({ excerpt: 'Done? @grace @grace @Grace-Hopper' });
    }
    // The commenter's own mention of themselves, and their own comment, tell them nothing.
    const own = await written(() => comment(s, s.member, task, 'On it, says @grace'));
    expect(summary(own)).toEqual(
      summary([{ recipient_id: s.other.id, kind: 'commented', actor_id: s.member.id }] as Row[]),
    );
  });

  it('tell the people an edited comment newly mentions, once, and make them watch', async () => {
    const task = await newTask(s, s.member);
    const { id } = (await comment(s, s.admin, task, 'Ask @grace')) as { id: string };
    const edit = (body: string) =>
      written(() => ok(s.admin.client.from('comments').update({ body }).eq('id', id)));
    const rows = await edit('Ask @grace and @margaret');
    expect(summary(rows)).toEqual(
      summary([{ recipient_id: s.other.id, kind: 'mentioned', actor_id: s.admin.id }] as Row[]),
    );
    expect(rows[0]?.comment_id).toBe(id);
    expect(rows[0]?.data).toMatchObject({ excerpt: 'Ask @grace and @margaret' });
    expect(await watchersOf(task)).toContain(s.other.id);
    // The same names again, fewer, or a change of wording tells nobody.
    expect(await edit('Ask @grace and @margaret, please')).toEqual([]);
    expect(await edit('Ask @grace')).toEqual([]);
  });

  it('tell nobody when a comment mentions someone outside the workspace, and do not make them watch', async () => {
    const task = await newTask(s, s.member);
    const rows = await written(() => comment(s, s.member, task, 'Ping @zed and @Zed.Outsider and @nobody'));
    expect(rows).toEqual([]);
    expect(await watchersOf(task)).toEqual([s.member.id]);
  });

  it('tell each member once however many times a thousand mentions in one comment name them', async () => {
    const task = await newTask(s, s.member);
    // A thousand mentions fill a comment (5,000 characters at most): Ada twice over, Oli, and Zed,
    // who is no member.
    const names = ['@ada', '@oli', '@zed', '@Ada'];
    const body = Array.from({ length: 1000 }, (_, i) => names[i % names.length]).join(' ');
    const rows = await written(() => comment(s, s.member, task, body));
    expect(summary(rows)).toEqual(
      summary(
        [s.admin, s.owner].map((p) => ({
          recipient_id: p.id,
          kind: 'mentioned',
          actor_id: s.member.id,
        })) as Row[],
      ),
    );
  });

  it('follow each person’s preferences: kinds for email only are archived, kinds wanted nowhere are not written', async () => {
    const task = await newTask(s, s.member, { assignee_id: s.other.id });
    await sql(
      `insert into public.notification_preferences (user_id, inbox_kinds, email_kinds) values
         ($1, '{}', '{commented}'), ($2, '{assigned}', '{assigned}')`,
      [s.member.id, s.other.id],
    );
    try {
      const rows = await written(() => comment(s, s.admin, task, 'A comment'));
      expect(rows).toEqual([
        expect.objectContaining({ recipient_id: s.member.id, kind: 'commented', archived: true }),
      ]);
      // Mentioned but wanting no mentions, Grace still hears of the comment on a task she watches.
      await sql(`update public.notification_preferences set inbox_kinds = '{commented}' where user_id = $1`, [
        s.member.id,
      ]);
      const mention = await written(() => comment(s, s.admin, task, 'Right, @grace?'));
      expect(mention).toEqual([
        expect.objectContaining({ recipient_id: s.member.id, kind: 'commented', archived: false }),
      ]);
    } finally {
      await sql('delete from public.notification_preferences where user_id = any ($1)', [
        [s.member.id, s.other.id],
      ]);
    }
  });

  it('tell nobody about a task in the trash', async () => {
    const { done } = await defaultStatuses(s.project);
    // Changed as the admin past the API (which refuses to change a trashed task).
    const changeAsAdmin = (task: string) =>
      sql(
        `with who as (select set_config('request.jwt.claims', $3, true) as claims)
         update public.tasks set assignee_id = $2, description = '@grace', status_id = $4
          where id = $1 and (select claims from who) is not null`,
        [task, s.viewer.id, JSON.stringify({ sub: s.admin.id, role: 'authenticated' }), done],
      );
    // The same change to a task outside the trash tells the new assignee, Grace and the watchers.
    const kept = await newTask(s, s.member, { assignee_id: s.other.id });
    expect((await written(() => changeAsAdmin(kept))).length).toBe(3);
    const task = await newTask(s, s.member, { assignee_id: s.other.id });
    const rows = await written(async () => {
      await ok(s.admin.client.rpc('trash_task', { task_id: task }));
      await changeAsAdmin(task);
    });
    expect(rows).toEqual([]);
  });

  it('tell someone added to a workspace by someone else, and an invitee that the inviter added them', async () => {
    const newcomer = await person('newcomer');
    const invited = await ok(
      s.admin.client.rpc('create_invitation', { workspace_id: s.ws, email: newcomer.email, role: 'member' }),
    );
    const token = (invited as Array<{ token: string }>)[0]?.token;
    const rows = await written(() => ok(newcomer.client.rpc('accept_invitation', { token })));
    expect(rows).toEqual([
      expect.objectContaining({
        recipient_id: newcomer.id,
        actor_id: s.admin.id,
        kind: 'added_to_workspace',
        task_id: null,
        data: { workspace: { slug: s.slug, name: 'Acme' }, role: 'member' },
      }),
    ]);
    // A workspace of one's own tells nobody.
    expect(
      await written(() =>
        newcomer.client.rpc('create_workspace', { name: 'Mine', slug: `mine-${newcomer.id.slice(0, 8)}` }),
      ),
    ).toEqual([]);
  });

  it('go with a person who leaves the workspace, with their watches there', async () => {
    const leaver = await person('leaver');
    await sql(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`,
      [s.ws, leaver.id],
    );
    await rename(leaver, 'Lea Leaver');
    const task = await newTask(s, s.member);
    await comment(s, s.admin, task, 'Over to @lea');
    expect((await all()).filter((n) => n.recipient_id === leaver.id)).toHaveLength(1);
    expect(await watchersOf(task)).toContain(leaver.id);
    await ok(
      leaver.client
        .from('workspace_members')
        .delete()
        .eq('workspace_id', s.ws)
        .eq('user_id', leaver.id)
        .select(),
    );
    expect((await all()).filter((n) => n.recipient_id === leaver.id)).toEqual([]);
    expect(await watchersOf(task)).not.toContain(leaver.id);
    // Nor does a comment on a task they used to watch reach them.
    expect(
      (await written(() => comment(s, s.admin, task, 'Anyone?'))).map((n) => n.recipient_id),
    ).not.toContain(leaver.id);
  });
});
