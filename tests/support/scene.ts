// A workspace with one person in each role (and an outsider), a project and a task: the cast of the
// RLS tests. Every person is a fresh confirmed user signed in through supabase-js.
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { anonClient, backend, confirmedUser } from './backend.ts';

export interface Person {
  id: string;
  client: SupabaseClient;
}

export async function person(tag: string): Promise<Person> {
  const user = await confirmedUser(tag);
  const client = anonClient();
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return { id: user.id, client };
}

export async function addMember(workspaceId: string, userId: string, role: string): Promise<void> {
  const client = new pg.Client({ connectionString: backend().dbUrl });
  await client.connect();
  try {
    await client.query(
      'insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3)',
      [workspaceId, userId, role],
    );
  } finally {
    await client.end();
  }
}

export interface Scene {
  ws: string;
  project: string;
  task: string;
  owner: Person;
  admin: Person;
  member: Person;
  other: Person;
  viewer: Person;
  outsider: Person;
}

export async function scene(): Promise<Scene> {
  const [owner, admin, member, other, viewer, outsider] = await Promise.all(
    ['owner', 'admin', 'member', 'other', 'viewer', 'outsider'].map(person),
  );
  if (!owner || !admin || !member || !other || !viewer || !outsider) throw new Error('people missing');
  const { data: ws, error } = await owner.client.rpc('create_workspace', {
    name: 'Acme',
    slug: `acme-${Math.random().toString(36).slice(2, 10)}`,
  });
  if (error) throw error;
  const wsId = (ws as { id: string }).id;
  await addMember(wsId, admin.id, 'admin');
  await addMember(wsId, member.id, 'member');
  await addMember(wsId, other.id, 'member');
  await addMember(wsId, viewer.id, 'viewer');
  // Made as an admin and a member would make them: a refusal here is a broken cast, not a test result.
  const project = await admin.client
    .from('projects')
    .insert({ workspace_id: wsId, name: 'Launch' })
    .select('id')
    .single();
  if (project.error) throw new Error(`scene: the admin could not create a project: ${project.error.message}`);
  const task = await member.client
    .from('tasks')
    .insert({ workspace_id: wsId, project_id: project.data.id, title: 'Ship it' })
    .select('id')
    .single();
  if (task.error) throw new Error(`scene: the member could not create a task: ${task.error.message}`);
  return {
    ws: wsId,
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
