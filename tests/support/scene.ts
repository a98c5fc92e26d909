// People for tests that act as someone through supabase-js: fresh confirmed users, each signed in
// on a client of their own, and the workspaces they are members of. `scene()` is the usual cast of
// the RLS tests: a workspace with one person in each role (and an outsider), a project and a task.
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, confirmedUser, type BackendAddress } from './backend.ts';
import { sql } from './db.ts';

export interface Person {
  id: string;
  email: string;
  password: string;
  /** Signed in as this person. */
  client: SupabaseClient;
}

export type Role = 'owner' | 'admin' | 'member' | 'viewer';

/** A client signed in with a password (a new session each time: a second device, say). */
export async function signedInClient(
  email: string,
  password: string,
  at?: BackendAddress,
): Promise<SupabaseClient> {
  const client = anonClient({ at });
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return client;
}

/** A fresh confirmed user (`tag` goes into the address), signed in. */
export async function person(tag: string): Promise<Person> {
  const user = await confirmedUser(tag);
  return { ...user, client: await signedInClient(user.email, user.password) };
}

/** Several people at once, in the order of their tags. */
export async function people<const T extends readonly string[]>(...tags: T): Promise<Person[]> {
  return Promise.all(tags.map((tag) => person(tag)));
}

/** Makes `userId` a member of a workspace, past the policies (nobody may add members directly). */
export async function addMember(workspaceId: string, userId: string, role: Role): Promise<void> {
  await sql('insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

/** A workspace `owner` creates as the app does (create_workspace), with a unique address. */
export async function createWorkspace(owner: Person, name = 'Acme'): Promise<{ id: string; slug: string }> {
  const { data, error } = await owner.client.rpc('create_workspace', {
    name,
    slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Math.random().toString(36).slice(2, 10)}`,
  });
  if (error) throw error;
  const { id, slug } = data as { id: string; slug: string };
  return { id, slug };
}

export interface Crew {
  ws: { id: string; slug: string };
  owner: Person;
  admin: Person;
  member: Person;
  viewer: Person;
  /** Signed in, and no member of the workspace. */
  outsider: Person;
}

/** A workspace with one person in each role, and an outsider: no project yet. */
export async function crew(): Promise<Crew> {
  const [owner, admin, member, viewer, outsider] = await people(
    'owner',
    'admin',
    'member',
    'viewer',
    'outsider',
  );
  if (!owner || !admin || !member || !viewer || !outsider) throw new Error('people missing');
  const ws = await createWorkspace(owner);
  await addMember(ws.id, admin.id, 'admin');
  await addMember(ws.id, member.id, 'member');
  await addMember(ws.id, viewer.id, 'viewer');
  return { ws, owner, admin, member, viewer, outsider };
}

export interface Scene {
  ws: string;
  slug: string;
  project: string;
  task: string;
  owner: Person;
  admin: Person;
  member: Person;
  /** A second member. */
  other: Person;
  viewer: Person;
  outsider: Person;
}

/** The crew, a second member, a project the admin made and a task the member made in it. */
export async function scene(): Promise<Scene> {
  const [{ ws, owner, admin, member, viewer, outsider }, other] = await Promise.all([
    crew(),
    person('other'),
  ]);
  await addMember(ws.id, other.id, 'member');
  // Made as an admin and a member would make them: a refusal here is a broken cast, not a test result.
  const project = await admin.client
    .from('projects')
    .insert({ workspace_id: ws.id, name: 'Launch' })
    .select('id')
    .single();
  if (project.error) throw new Error(`scene: the admin could not create a project: ${project.error.message}`);
  const task = await member.client
    .from('tasks')
    .insert({ workspace_id: ws.id, project_id: project.data.id, title: 'Ship it' })
    .select('id')
    .single();
  if (task.error) throw new Error(`scene: the member could not create a task: ${task.error.message}`);
  return {
    ws: ws.id,
    slug: ws.slug,
    project: project.data.id,
    task: task.data.id,
    owner,
    admin,
    member,
    other,
    viewer,
    outsider,
  };
}

/** A new project's four statuses by the names its columns had before projects had their own. */
export interface DefaultStatuses {
  backlog: string;
  todo: string;
  in_progress: string;
  done: string;
}

/** The ids of a project's default statuses (Backlog, To do, In progress, Done), read past RLS. */
export async function defaultStatuses(project: string): Promise<DefaultStatuses> {
  const rows = await sql<{ id: string; name: string }>(
    'select id, name from public.project_statuses where project_id = $1',
    [project],
    { role: 'superuser' },
  );
  const id = (name: string) => {
    const found = rows.find((r) => r.name === name)?.id;
    if (!found) throw new Error(`project ${project} has no status ${name}`);
    return found;
  };
  return { backlog: id('Backlog'), todo: id('To do'), in_progress: id('In progress'), done: id('Done') };
}

/** The claims of a person's access token, as PostgREST sets them for a request (`request.jwt.claims`). */
export async function claimsOf(who: Person): Promise<Record<string, unknown>> {
  const { data } = await who.client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('no session');
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
}
