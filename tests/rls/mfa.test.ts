// AAL2 enforced by the database (SPEC section 2): once a user has a verified authenticator app, a
// session that has not stepped up reads and writes no workspace data, files or other people's profiles
// through the REST API, whatever the app does. Also the sessions RPCs and what deleting an account takes.
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { addFactor, type Authenticator } from '../support/authenticator.ts';
import { adminClient, anonClient } from '../support/backend.ts';
import { useDb } from '../support/db.ts';
import { joinBoardChannel, listening } from '../support/realtime.ts';
import { addMember, createWorkspace, defaultStatuses, person, signedInClient } from '../support/scene.ts';
import { until } from '../support/until.ts';

interface SessionRow {
  id: string;
  is_current: boolean;
}

interface OwnedWorkspace {
  name: string;
  is_personal: boolean;
  other_members: number;
}

const db = useDb();
const signIn = signedInClient;

/**
 * Steps an aal1 session up with the app's next code. supabase-js hands realtime a new token on sign-in
 * and refresh but not after an MFA verify, so this passes it on as the app's browser client would.
 */
async function stepUp(client: SupabaseClient, factorId: string, app: Authenticator): Promise<void> {
  const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: await app.nextCode() });
  if (verified.error) throw verified.error;
  await client.realtime.setAuth(verified.data.access_token);
}

/** An owner with a shared workspace holding a project, a task, a comment, an invitation and a teammate. */
async function ownerWithData(tag: string) {
  const owner = await person(tag);
  const mate = await person(`${tag}-mate`);
  const ws = await createWorkspace(owner, 'Crew');
  await addMember(ws.id, mate.id, 'member');
  const project = await owner.client
    .from('projects')
    .insert({ workspace_id: ws.id, name: 'Launch' })
    .select('id')
    .single();
  if (project.error) throw project.error;
  const task = await owner.client
    .from('tasks')
    .insert({ workspace_id: ws.id, project_id: project.data.id, title: 'Ship it' })
    .select('id')
    .single();
  if (task.error) throw task.error;
  const comment = await owner.client
    .from('comments')
    .insert({ workspace_id: ws.id, task_id: task.data.id, body: 'Soon' });
  if (comment.error) throw comment.error;
  const invitation = await owner.client.rpc('create_invitation', {
    workspace_id: ws.id,
    email: `invitee-${Math.random().toString(36).slice(2, 10)}@example.test`,
    role: 'viewer',
  });
  if (invitation.error) throw invitation.error;
  return { owner, mate, ws, projectId: project.data.id, taskId: task.data.id };
}

/** How many rows of each table `client` can read. */
async function visible(client: SupabaseClient) {
  const tables = {
    workspaces: 'id',
    workspace_members: 'user_id',
    projects: 'id',
    tasks: 'id',
    comments: 'id',
    activity: 'id',
    invitations: 'id',
    profiles: 'id',
  };
  const counts: Record<string, number> = {};
  for (const [table, column] of Object.entries(tables)) {
    const { data, error } = await client.from(table).select(column);
    if (error) throw error;
    counts[table] = data.length;
  }
  return counts;
}

describe('aal2 once a factor is verified', () => {
  it('the same user reads everything at aal2, and at aal1 only their own profile', async () => {
    const { owner, mate } = await ownerWithData('stepup');
    const before = await visible(owner.client);
    expect(before).toMatchObject({ workspaces: 2, workspace_members: 3, projects: 1, tasks: 1, comments: 1 });
    expect(before.invitations).toBe(1);
    expect(before.profiles).toBe(2);
    expect(before.activity).toBeGreaterThan(0);

    const { app, factorId } = await addFactor(owner.client);
    expect(await visible(owner.client)).toEqual(before);
    expect((await owner.client.rpc('session_status')).data).toBe('active');

    const aal1 = await signIn(owner.email, owner.password);
    expect((await aal1.rpc('session_status')).data).toBe('mfa_required');
    expect(await visible(aal1)).toEqual({
      workspaces: 0,
      workspace_members: 0,
      projects: 0,
      tasks: 0,
      comments: 0,
      activity: 0,
      invitations: 0,
      profiles: 1,
    });
    const ownProfile = await aal1.from('profiles').select('id').single();
    expect(ownProfile.data?.id).toBe(owner.id);

    // The teammate, without a factor, is not affected by the owner's.
    expect((await mate.client.rpc('session_status')).data).toBe('active');
    expect((await visible(mate.client)).tasks).toBe(1);

    // After stepping up, the same session reads what the aal2 one does.
    const verified = await aal1.auth.mfa.challengeAndVerify({ factorId, code: await app.nextCode() });
    expect(verified.error).toBeNull();
    expect((await aal1.rpc('session_status')).data).toBe('active');
    expect(await visible(aal1)).toEqual(before);
  });

  it('at aal1 nothing is written: not through tables, not through functions', async () => {
    const { owner, ws, projectId, taskId } = await ownerWithData('writes');
    await addFactor(owner.client);
    const aal1 = await signIn(owner.email, owner.password);

    const rename = await aal1.from('tasks').update({ title: 'Hijacked' }).eq('id', taskId).select('id');
    expect(rename.data ?? []).toEqual([]);
    const insert = await aal1
      .from('tasks')
      .insert({ workspace_id: ws.id, project_id: projectId, title: 'New' });
    expect(insert.error?.code).toBe('42501');
    const profile = await aal1
      .from('profiles')
      .update({ display_name: 'Mallory' })
      .eq('id', owner.id)
      .select();
    expect(profile.data ?? []).toEqual([]);
    const created = await aal1.rpc('create_workspace', { name: 'Sneaky', slug: `sneaky-${Date.now()}` });
    expect(created.error?.code).toBe('42501');
    const moved = await aal1.rpc('move_task', {
      task_id: taskId,
      status_id: (await defaultStatuses(projectId)).done,
    });
    // Not found: at aal1 the task is not there for them.
    expect(moved.status).toBe(404);
    const invited = await aal1.rpc('create_invitation', {
      workspace_id: ws.id,
      email: 'someone@example.test',
      role: 'viewer',
    });
    expect(invited.error?.code).toBe('42501');
    expect((await aal1.rpc('is_member', { ws: ws.id })).data).toBe(false);

    const { data } = await owner.client.from('tasks').select('title').eq('id', taskId).single();
    expect(data?.title).toBe('Ship it');
  });

  it('a user without a factor is unaffected at aal1', async () => {
    const { owner } = await ownerWithData('nofactor');
    expect((await owner.client.rpc('session_status')).data).toBe('active');
    const counts = await visible(owner.client);
    expect(counts).toMatchObject({ workspaces: 2, projects: 1, tasks: 1, comments: 1, profiles: 2 });
  });

  it('covers every table in public: the owner sees rows of each at aal2 and none at aal1', async () => {
    const { owner, ws, projectId, taskId } = await ownerWithData('tables');
    // The tables the scene above does not fill yet: attachments, labels, labels on tasks, links.
    const label = await owner.client
      .from('labels')
      .insert({ workspace_id: ws.id, name: 'Plan', color: 'blue' })
      .select('id')
      .single();
    expect(label.error).toBeNull();
    const labelled = await owner.client
      .from('task_labels')
      .insert({ workspace_id: ws.id, task_id: taskId, label_id: label.data?.id ?? '' });
    expect(labelled.error).toBeNull();
    const path = `${ws.id}/${taskId}/${randomUUID()}/plan.txt`;
    expect((await owner.client.storage.from('attachments').upload(path, bytes('plan'))).error).toBeNull();
    const attached = await owner.client.from('attachments').insert({
      workspace_id: ws.id,
      task_id: taskId,
      path,
      name: 'plan.txt',
      size: 4,
      content_type: 'text/plain',
    });
    expect(attached.error).toBeNull();
    // A link between two tasks (the history fills itself from the task's creation).
    const other = await owner.client
      .from('tasks')
      .insert({
        workspace_id: ws.id,
        project_id: projectId,
        title: 'Test it',
      })
      .select('id')
      .single();
    expect(other.error).toBeNull();
    const linked = await owner.client.from('task_links').insert({
      workspace_id: ws.id,
      from_task_id: taskId,
      to_task_id: other.data?.id ?? '',
      kind: 'blocks',
    });
    expect(linked.error).toBeNull();
    // A notification: a teammate assigns the owner a task (the database writes it, and the watch).
    const teammate = await person('tables-assigner');
    await addMember(ws.id, teammate.id, 'member');
    const assigned = await teammate.client
      .from('tasks')
      .update({ assignee_id: owner.id })
      .eq('id', other.data?.id ?? '');
    expect(assigned.error).toBeNull();
    // Notification preferences.
    const preferred = await owner.client
      .from('notification_preferences')
      .insert({ user_id: owner.id, email_frequency: 'daily' });
    expect(preferred.error).toBeNull();
    // A saved view.
    const view = await owner.client
      .from('saved_views')
      .insert({ workspace_id: ws.id, project_id: projectId, name: 'Mine', query: { assignee: 'me' } });
    expect(view.error).toBeNull();
    // An import waiting on its preview page.
    const staged = await owner.client.from('task_imports').insert({
      workspace_id: ws.id,
      project_id: projectId,
      source: 'CSV',
      payload: { tasks: [{ title: 'Imported' }] },
    });
    expect(staged.error).toBeNull();
    const { factorId, app } = await addFactor(owner.client);
    const aal1 = await signIn(owner.email, owner.password);

    // Every table under RLS, so one added later fails here until the scene fills it and aal1 sees nothing.
    const { rows } = await db().query<{ table: string; column: string }>(
      `select c.relname as table,
              (select a.attname from pg_attribute a
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                  and has_column_privilege('authenticated', c.oid, a.attnum, 'SELECT')
                order by a.attnum limit 1) as column
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and c.relrowsecurity order by 1`,
    );
    expect(rows.map((r) => r.table)).toContain('attachments');
    for (const { table, column } of rows) {
      const atAal2 = await owner.client.from(table).select(column);
      expect(atAal2.error, table).toBeNull();
      expect(atAal2.data?.length, table).toBeGreaterThan(0);
      const atAal1 = await aal1.from(table).select(column);
      expect(atAal1.error, table).toBeNull();
      // Their own profile stays readable: the step-up page greets them by name.
      if (table === 'profiles') expect(atAal1.data, table).toEqual([{ [column]: owner.id }]);
      else expect(atAal1.data, table).toEqual([]);
    }

    await stepUp(aal1, factorId, app);
    expect((await aal1.from('attachments').select('id')).data).toHaveLength(1);
  });

  it('files: at aal1 neither bucket lists, serves or takes a file; at aal2 both do', async () => {
    const { owner, ws, taskId } = await ownerWithData('files');
    const attachment = `${ws.id}/${taskId}/${randomUUID()}/plan.txt`;
    const avatar = `${owner.id}/me.png`;
    expect(
      (await owner.client.storage.from('attachments').upload(attachment, bytes('plan'))).error,
    ).toBeNull();
    expect(
      (await owner.client.storage.from('avatars').upload(avatar, bytes('png?'), { contentType: 'image/png' }))
        .error,
    ).toBeNull();
    const { factorId, app } = await addFactor(owner.client);
    const aal1 = await signIn(owner.email, owner.password);

    const attachments = aal1.storage.from('attachments');
    expect((await attachments.list(`${ws.id}/${taskId}`)).data ?? []).toEqual([]);
    expect((await attachments.download(attachment)).error).not.toBeNull();
    expect((await attachments.createSignedUrl(attachment, 60)).error).not.toBeNull();
    const attachmentUpload = await attachments.upload(`${ws.id}/${taskId}/${randomUUID()}/x.txt`, bytes('x'));
    expect(attachmentUpload.error?.message).toMatch(/row-level security/);
    const avatars = aal1.storage.from('avatars');
    expect((await avatars.list(owner.id)).data ?? []).toEqual([]);
    expect(
      (await avatars.upload(`${owner.id}/new.png`, bytes('png?'), { contentType: 'image/png' })).error
        ?.message,
    ).toMatch(/row-level security/);
    expect((await avatars.remove([avatar])).data ?? []).toEqual([]);

    await stepUp(aal1, factorId, app);
    expect(await (await attachments.download(attachment)).data?.text()).toBe('plan');
    expect((await attachments.list(`${ws.id}/${taskId}`)).data).toHaveLength(1);
    expect((await avatars.list(owner.id)).data?.map((f) => f.name)).toEqual(['me.png']);
    expect(
      (await avatars.upload(`${owner.id}/new.png`, bytes('png?'), { contentType: 'image/png' })).error,
    ).toBeNull();
  });

  it('realtime: at aal1 the board channel refuses and no change arrives; at aal2 both work', async () => {
    const { owner, mate, ws, projectId } = await ownerWithData('live');
    const { factorId, app } = await addFactor(owner.client);
    const aal1 = await signIn(owner.email, owner.password);
    const clients = [owner.client, aal1];
    try {
      expect(await joinBoard(aal1, projectId)).toMatch(/Unauthorized/);
      expect(await joinBoard(owner.client, projectId)).toBeUndefined();

      // The same inserts, seen by the aal2 session and not by the aal1 one of the same user.
      const atAal1 = await listenToTasks(aal1, projectId);
      const atAal2 = await listenToTasks(owner.client, projectId);
      const first = await addTaskAndHear(mate.client, ws.id, projectId, atAal2);
      await new Promise((r) => setTimeout(r, 500));
      expect(atAal1.filter((t) => t.title === first)).toEqual([]);

      await stepUp(aal1, factorId, app);
      expect(await joinBoard(aal1, projectId)).toBeUndefined();
      const steppedUp = await listenToTasks(aal1, projectId);
      await addTaskAndHear(mate.client, ws.id, projectId, steppedUp);
    } finally {
      await Promise.all(clients.map((c) => c.removeAllChannels()));
    }
  });
});

const bytes = (text: string) => new TextEncoder().encode(text);

/** Adds a task as `client` and waits until `heard` has it; returns its title. */
async function addTaskAndHear(
  client: SupabaseClient,
  workspaceId: string,
  projectId: string,
  heard: Array<{ title: string }>,
): Promise<string> {
  const title = `Task ${randomUUID().slice(0, 8)}`;
  const { error } = await client
    .from('tasks')
    .insert({ workspace_id: workspaceId, project_id: projectId, title });
  if (error) throw error;
  await until(
    `the insert of ${title}`,
    () => (heard.some((t) => t.title === title) ? true : undefined),
    5000,
  );
  return title;
}

/** Joins the private channel of a board as the board page does; the refusal's message, if refused. */
async function joinBoard(client: SupabaseClient, projectId: string): Promise<string | undefined> {
  return (await joinBoardChannel(client, `board:${projectId}`)).error;
}

/** Tasks inserted into a project, as `client` hears of them; resolves once realtime listens. */
async function listenToTasks(client: SupabaseClient, projectId: string): Promise<Array<{ title: string }>> {
  const heard: Array<{ title: string }> = [];
  const channel: RealtimeChannel = client
    .channel(`tasks-${randomUUID()}`)
    .on<{ title: string }>(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'tasks', filter: `project_id=eq.${projectId}` },
      (payload) => heard.push(payload.new),
    );
  await listening(channel);
  return heard;
}

describe('my_sessions and sign_out_session', () => {
  it('list only the caller’s sessions, marking the current one', async () => {
    const ada = await person('ada');
    const adaPhone = await signIn(ada.email, ada.password);
    const bob = await person('bob');
    const { data, error } = await ada.client.rpc('my_sessions');
    expect(error).toBeNull();
    expect(data).toHaveLength(2);
    expect(data?.filter((s: SessionRow) => s.is_current)).toHaveLength(1);
    const bobs = await bob.client.rpc('my_sessions');
    expect(bobs.data).toHaveLength(1);
    const adaPhoneSessions = await adaPhone.rpc('my_sessions');
    const current = data?.find((s: SessionRow) => s.is_current)?.id;
    expect(adaPhoneSessions.data?.find((s: SessionRow) => s.is_current)?.id).not.toBe(current);
    expect(await anonClient().rpc('my_sessions')).toMatchObject({ error: { code: '42501' } });
  });

  it('end one of the caller’s own sessions, refresh token and all, and nobody else’s', async () => {
    const ada = await person('ada');
    const adaPhone = await signIn(ada.email, ada.password);
    const bob = await person('bob');
    const bobSession = (await bob.client.rpc('my_sessions')).data?.[0]?.id;
    const phoneSession = (await adaPhone.rpc('my_sessions')).data?.find((s: SessionRow) => s.is_current)?.id;
    expect(bobSession).toBeTruthy();

    const notMine = await ada.client.rpc('sign_out_session', { session_id: bobSession });
    expect(notMine).toMatchObject({ data: false, error: null });
    expect((await bob.client.rpc('session_status')).data).toBe('active');

    const mine = await ada.client.rpc('sign_out_session', { session_id: phoneSession });
    expect(mine).toMatchObject({ data: true, error: null });
    expect((await adaPhone.rpc('session_status')).data).toBe('ended');
    const refreshed = await adaPhone.auth.refreshSession();
    expect(refreshed.error).not.toBeNull();
    expect((await ada.client.rpc('session_status')).data).toBe('active');
  });

  it('need aal2 once a factor is verified', async () => {
    const ada = await person('ada');
    await addFactor(ada.client);
    const aal1 = await signIn(ada.email, ada.password);
    expect((await aal1.rpc('my_sessions')).data).toEqual([]);
    const session = (await ada.client.rpc('my_sessions')).data?.find((s: SessionRow) => s.is_current)?.id;
    expect((await aal1.rpc('sign_out_session', { session_id: session })).error?.code).toBe('42501');
    expect((await ada.client.rpc('session_status')).data).toBe('active');
  });
});

describe('deleting an account', () => {
  it('is refused while the user solely owns a shared workspace; otherwise takes their workspaces along', async () => {
    const { owner, mate, ws } = await ownerWithData('leaver');
    const owned = await owner.client.rpc('owned_workspaces');
    expect(owned.data?.map((w: OwnedWorkspace) => [w.name, w.is_personal, w.other_members])).toEqual([
      ['Crew', false, 1],
      ['Personal', true, 0],
    ]);

    const refused = await adminClient().auth.admin.deleteUser(owner.id);
    expect(refused.error).not.toBeNull();
    const still = await db().query('select 1 from public.workspaces where id = $1', [ws.id]);
    expect(still.rowCount).toBe(1);

    // The teammate can go; then the workspace has nobody else and goes with its owner.
    expect((await adminClient().auth.admin.deleteUser(mate.id)).error).toBeNull();
    expect(
      (await owner.client.rpc('owned_workspaces')).data?.map((w: OwnedWorkspace) => w.other_members),
    ).toEqual([0, 0]);
    expect((await adminClient().auth.admin.deleteUser(owner.id)).error).toBeNull();
    const left = await db().query('select 1 from public.workspaces where id = $1 or created_by = $2', [
      ws.id,
      owner.id,
    ]);
    expect(left.rowCount).toBe(0);
  });
});
