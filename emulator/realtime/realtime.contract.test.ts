// The unmodified @supabase/supabase-js realtime client against the local realtime service: changes to
// the app's own tasks under its RLS policies, token expiry, presence, broadcast over the socket and the
// REST API, and both protocol versions.
import {
  createClient,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import * as jose from 'jose';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, confirmedUser, testIp } from '../../tests/support/backend.ts';

const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

type Task = {
  id: string;
  title: string;
  project_id: string;
  status_id: string;
  priority: string;
  number: number;
};

interface Person {
  id: string;
  client: SupabaseClient;
}

const clients: SupabaseClient[] = [];

function client(vsn?: '1.0.0' | '2.0.0'): SupabaseClient {
  const { apiUrl, anonKey } = backend();
  const made = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'X-Forwarded-For': testIp() } },
    realtime: vsn ? { vsn } : {},
  });
  clients.push(made);
  return made;
}

async function person(tag: string, vsn?: '1.0.0' | '2.0.0'): Promise<Person> {
  const user = await confirmedUser(tag);
  const signedIn = client(vsn);
  const { error } = await signedIn.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return { id: user.id, client: signedIn };
}

async function sql(text: string, values: unknown[] = []) {
  const db = new pg.Client({ connectionString: backend().dbUrl });
  await db.connect();
  try {
    return await db.query(text, values);
  } finally {
    await db.end();
  }
}

/** Subscribes; resolves once joined and, with postgres_changes, once realtime says it listens. */
function subscribe(channel: RealtimeChannel, withChanges = false): Promise<void> {
  return new Promise((resolve, reject) => {
    let joined = false;
    let listening = !withChanges;
    if (withChanges) {
      channel.on('system', {}, (payload: { extension: string; status: string; message: string }) => {
        if (payload.extension !== 'postgres_changes') return;
        if (payload.status !== 'ok') reject(new Error(payload.message));
        listening = true;
        if (joined) resolve();
      });
    }
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') {
        joined = true;
        if (listening) resolve();
      } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        reject(error ?? new Error(status));
      }
    });
  });
}

function until<T>(what: string, check: () => T | undefined, timeoutMs = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > timeoutMs) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels()));
});

describe('postgres_changes on public.tasks', () => {
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let project: string;
  let otherProject: string;
  let workspace: string;

  beforeAll(async () => {
    [owner, member, outsider] = await Promise.all([
      person('rt-owner'),
      person('rt-member'),
      person('rt-outsider'),
    ]);
    const { data: ws, error } = await owner.client.rpc('create_workspace', {
      name: 'Realtime',
      slug: `rt-${Math.random().toString(36).slice(2, 10)}`,
    });
    if (error) throw error;
    workspace = (ws as { id: string }).id;
    await sql('insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
      workspace,
      member.id,
      'member',
    ]);
    const projects = await owner.client
      .from('projects')
      .insert([
        { workspace_id: workspace, name: 'Board', created_by: owner.id },
        { workspace_id: workspace, name: 'Other', created_by: owner.id },
      ])
      .select('id');
    if (projects.error) throw projects.error;
    const [board, other] = projects.data;
    if (!board || !other) throw new Error('projects missing');
    project = board.id;
    otherProject = other.id;
  });

  it('delivers a member the inserts and updates of their project, and only those the filter names', async () => {
    const events: Array<RealtimePostgresChangesPayload<Task>> = [];
    const channel = member.client
      .channel(`tasks-${project}`)
      .on<Task>(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'tasks', filter: `project_id=eq.${project}` },
        (payload) => events.push(payload),
      );
    await subscribe(channel, true);
    const { data: statuses } = await member.client
      .from('project_statuses')
      .select('id, name')
      .eq('project_id', project);
    const statusId = (name: string) => statuses?.find((s) => s.name === name)?.id;

    const inserted = await member.client
      .from('tasks')
      .insert({ workspace_id: workspace, project_id: project, title: 'Ship realtime', created_by: member.id })
      .select()
      .single();
    if (inserted.error) throw inserted.error;
    await member.client.from('tasks').insert({
      workspace_id: workspace,
      project_id: otherProject,
      title: 'Elsewhere',
      created_by: member.id,
    });
    const insert = await until('the INSERT', () => events.find((e) => e.eventType === 'INSERT'));
    expect(insert).toMatchObject({
      schema: 'public',
      table: 'tasks',
      eventType: 'INSERT',
      errors: null,
      // An enum as its label, a uuid as text.
      new: {
        id: inserted.data.id,
        title: 'Ship realtime',
        project_id: project,
        status_id: statusId('To do'),
        priority: 'none',
        number: 1,
      },
      old: {},
    });
    expect(insert.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const { error } = await member.client
      .from('tasks')
      .update({ status_id: statusId('Done') })
      .eq('id', inserted.data.id);
    if (error) throw error;
    const update = await until('the UPDATE', () => events.find((e) => e.eventType === 'UPDATE'));
    expect(update.new).toMatchObject({ id: inserted.data.id, status_id: statusId('Done') });
    // Replica identity default: the old row is its primary key.
    expect(update.old).toEqual({ id: inserted.data.id });
    await pause(200);
    expect(events.map((e) => e.eventType)).toEqual(['INSERT', 'UPDATE']);
  });

  it('delivers deletes with the primary key only, unchecked by RLS, and not to filters on other columns', async () => {
    const { data: task } = await owner.client
      .from('tasks')
      .insert({ workspace_id: workspace, project_id: project, title: 'Doomed', created_by: owner.id })
      .select()
      .single();
    if (!task) throw new Error('no task');
    const byId: Array<RealtimePostgresChangesPayload<Task>> = [];
    const byProject: Array<RealtimePostgresChangesPayload<Task>> = [];
    const outsiders: Array<RealtimePostgresChangesPayload<Task>> = [];
    const mine = member.client
      .channel(`deletes-${task.id}`)
      .on<Task>(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'tasks', filter: `id=eq.${task.id}` },
        (p) => byId.push(p),
      )
      .on<Task>(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'tasks', filter: `project_id=eq.${project}` },
        (p) => byProject.push(p),
      );
    const theirs = outsider.client
      .channel(`outsider-deletes-${task.id}`)
      .on<Task>('postgres_changes', { event: 'DELETE', schema: 'public', table: 'tasks' }, (p) =>
        outsiders.push(p),
      );
    await Promise.all([subscribe(mine, true), subscribe(theirs, true)]);

    // A task row goes away only when the trash is purged (clients move it to the trash).
    await sql('delete from public.tasks where id = $1', [task.id]);
    const deleted = await until('the DELETE', () => byId[0]);
    expect(deleted).toMatchObject({ eventType: 'DELETE', new: {}, old: { id: task.id } });
    expect(Object.keys(deleted.old)).toEqual(['id']);
    // As upstream: deletes are not RLS-checked (only the key goes out), and a filter on a column the
    // old row does not carry never matches.
    await until('the outsider DELETE', () => outsiders.find((e) => 'id' in e.old && e.old.id === task.id));
    await pause(200);
    expect(byProject).toEqual([]);
  });

  it('gives an outsider subscribed to the same table none of the inserts and updates', async () => {
    const seen: Array<RealtimePostgresChangesPayload<Task>> = [];
    const mine: Array<RealtimePostgresChangesPayload<Task>> = [];
    const theirs = outsider.client
      .channel('outsider-all')
      .on<Task>('postgres_changes', { event: '*', schema: 'public', table: 'tasks' }, (p) => seen.push(p));
    const ours = member.client
      .channel('member-all')
      .on<Task>('postgres_changes', { event: '*', schema: 'public', table: 'tasks' }, (p) => mine.push(p));
    await Promise.all([subscribe(theirs, true), subscribe(ours, true)]);
    const { data } = await member.client
      .from('tasks')
      .insert({ workspace_id: workspace, project_id: project, title: 'Private', created_by: member.id })
      .select()
      .single();
    await member.client.from('tasks').update({ title: 'Still private' }).eq('id', data?.id);
    await until('the member to see both', () => (mine.length >= 2 ? mine : undefined));
    await pause(300);
    expect(seen).toEqual([]);
  });

  it('answers a bad filter with a system error and the join still succeeds', async () => {
    const channel = member.client
      .channel('bad-filter')
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'tasks', filter: 'nope=eq.1' },
        () => {},
      );
    await expect(subscribe(channel, true)).rejects.toThrow(
      /Unable to subscribe to changes with given parameters\. An exception happened.*invalid column for filter nope/,
    );
    expect(channel.state).toBe('joined');
  });
});

describe('tokens', () => {
  async function userToken(expiresIn: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new jose.SignJWT({ role: 'authenticated', sub: crypto.randomUUID(), aud: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now - 60)
      .setExpirationTime(now + expiresIn)
      .sign(new TextEncoder().encode(JWT_SECRET));
  }

  it('refuses a join with an expired token', async () => {
    const c = client();
    await c.realtime.setAuth(await userToken(-30));
    const channel = c.channel('expired');
    await expect(subscribe(channel)).rejects.toThrow(/^InvalidJWTToken: Token has expired \d+ seconds ago$/);
    await c.removeChannel(channel);
  });

  it('refuses a token signed with another secret', async () => {
    const c = client();
    const forged = await new jose.SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-of-at-least-thirty-two-chars'));
    await c.realtime.setAuth(forged);
    const channel = c.channel('forged');
    await expect(subscribe(channel)).rejects.toThrow('JwtSignatureError: Failed to validate JWT signature');
    await c.removeChannel(channel);
  });

  it('closes a joined channel with a system error when its token expires', async () => {
    const c = client();
    await c.realtime.setAuth(await userToken(2));
    const system: Array<{ status: string; message: string; extension: string }> = [];
    const statuses: string[] = [];
    const channel = c.channel('short-lived').on('system', {}, (p: (typeof system)[number]) => system.push(p));
    await new Promise<void>((resolve) =>
      channel.subscribe((status) => {
        statuses.push(status);
        if (status === 'SUBSCRIBED') resolve();
      }),
    );
    await until('the channel to close', () => (statuses.includes('CLOSED') ? true : undefined), 5000);
    expect(system).toContainEqual({
      extension: 'system',
      status: 'error',
      message: expect.stringMatching(/^Token has expired \d+ seconds ago$/),
      channel: 'short-lived',
    });
  });

  it('keeps a channel open when a fresh token arrives before the old one expires', async () => {
    const c = client();
    await c.realtime.setAuth(await userToken(2));
    const statuses: string[] = [];
    const system: unknown[] = [];
    const channel = c.channel('refreshed').on('system', {}, (p: unknown) => system.push(p));
    await new Promise<void>((resolve) =>
      channel.subscribe((status) => {
        statuses.push(status);
        if (status === 'SUBSCRIBED') resolve();
      }),
    );
    // What supabase-js does after a token refresh: send access_token on every joined channel.
    await c.realtime.setAuth(await userToken(60));
    await pause(3000);
    expect(statuses).toEqual(['SUBSCRIBED']);
    expect(system).toEqual([]);
    await c.removeChannel(channel);
  });

  it('refuses a websocket without an API key (realtime itself: the CLI’s gateway checks none)', async () => {
    const url = `${backend().apiUrl.replace('http', 'ws')}/realtime/v1/websocket?vsn=2.0.0`;
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('opened')));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(401);
  });

  it('refuses a private channel the realtime.messages policies do not open', async () => {
    const c = (await person('rt-private')).client;
    const channel = c.channel('locked-room', { config: { private: true } });
    await expect(subscribe(channel)).rejects.toThrow(
      'Unauthorized: You do not have permissions to read from this Channel topic: locked-room',
    );
    await c.removeChannel(channel);
  });
});

describe.each(['2.0.0', '1.0.0'] as const)('protocol %s', (vsn) => {
  const room = () => `room-${vsn}-${Math.random().toString(36).slice(2, 8)}`;

  it('syncs presence between two clients, and their leaving', async () => {
    const name = room();
    const a = client(vsn).channel(name, { config: { presence: { key: 'alice' } } });
    const b = client(vsn).channel(name, { config: { presence: { key: 'bob' } } });
    const leaves: string[] = [];
    a.on('presence', { event: 'sync' }, () => {}).on('presence', { event: 'leave' }, ({ key }) =>
      leaves.push(key),
    );
    b.on('presence', { event: 'sync' }, () => {});
    await Promise.all([subscribe(a), subscribe(b)]);
    expect(await a.track({ online_at: 'now' })).toBe('ok');
    expect(await b.track({ online_at: 'later' })).toBe('ok');
    await until('both to see both', () =>
      Object.keys(a.presenceState()).length === 2 && Object.keys(b.presenceState()).length === 2
        ? true
        : undefined,
    );
    expect(a.presenceState().bob).toEqual([{ online_at: 'later', presence_ref: expect.any(String) }]);
    await b.unsubscribe();
    await until('bob to leave', () => (leaves.includes('bob') ? true : undefined));
    expect(Object.keys(a.presenceState())).toEqual(['alice']);
  });

  it('broadcasts to others, to the sender only with self, and acknowledges with ack', async () => {
    const name = room();
    const got = { a: [] as unknown[], b: [] as unknown[], c: [] as unknown[] };
    const a = client(vsn)
      .channel(name, { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'cursor' }, (m) => got.a.push(m.payload));
    const b = client(vsn)
      .channel(name)
      .on('broadcast', { event: 'cursor' }, (m) => got.b.push(m.payload));
    const c = client(vsn)
      .channel(name, { config: { broadcast: { self: true } } })
      .on('broadcast', { event: 'cursor' }, (m) => got.c.push(m.payload));
    await Promise.all([subscribe(a), subscribe(b), subscribe(c)]);
    expect(await a.send({ type: 'broadcast', event: 'cursor', payload: { x: 1 } })).toBe('ok');
    await c.send({ type: 'broadcast', event: 'cursor', payload: { x: 2 } });
    await until('b to get both', () => (got.b.length === 2 ? true : undefined));
    await until('c to get both', () => (got.c.length === 2 ? true : undefined));
    await pause(200);
    expect(got.a).toEqual([{ x: 2 }]);
    expect(got.b).toEqual([{ x: 1 }, { x: 2 }]);
    expect(got.c).toEqual([{ x: 1 }, { x: 2 }]);
  });

  it('delivers broadcasts sent through the REST API', async () => {
    const name = room();
    const got: Array<{ event: string; payload: unknown }> = [];
    const listener = client(vsn)
      .channel(name)
      .on('broadcast', { event: '*' }, (m) => got.push({ event: m.event, payload: m.payload }));
    await subscribe(listener);
    const { apiUrl, serviceRoleKey } = backend();
    const batch = await fetch(`${apiUrl}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: {
        apikey: serviceRoleKey,
        Authorization: `Bearer ${serviceRoleKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        messages: [
          { topic: name, event: 'batch', payload: { n: 1 } },
          { topic: name, event: 'secret', payload: { n: 2 }, private: true },
        ],
      }),
    });
    expect(batch.status).toBe(202);
    const sender = (await person('rt-sender', vsn)).client.channel(name);
    expect(await sender.httpSend('single', { n: 3 })).toEqual({ success: true });
    await until('both messages', () => (got.length === 2 ? true : undefined));
    await pause(200);
    expect(got).toEqual([
      { event: 'batch', payload: { n: 1 } },
      { event: 'single', payload: { n: 3 } },
    ]);
  });

  it('delivers postgres_changes', async () => {
    const table = `rt_notes_${vsn.replaceAll('.', '_')}`;
    await sql(
      `create table if not exists public.${table} (id bigint generated always as identity primary key, body text, tags text[], meta jsonb)`,
    );
    await sql(`alter publication supabase_realtime add table public.${table}`).catch(() => undefined);
    const events: Array<
      RealtimePostgresChangesPayload<{ id: number; body: string; tags: string[]; meta: object }>
    > = [];
    const channel = client(vsn)
      .channel(room())
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table }, (p) =>
        events.push(p as (typeof events)[number]),
      );
    try {
      await subscribe(channel, true);
      await sql(`insert into public.${table} (body, tags, meta) values ('hi', '{a,b}', '{"k": [1, 2]}')`);
      const insert = await until('the INSERT', () => events[0]);
      expect(insert.new).toEqual({
        id: expect.any(Number),
        body: 'hi',
        tags: ['a', 'b'],
        meta: { k: [1, 2] },
      });
    } finally {
      // A table without RLS left in `public` would fail the advisors test that shares this database.
      await sql(`drop table if exists public.${table}`);
    }
  });
});

describe('mixed protocols', () => {
  it('turns a binary broadcast from a 2.0.0 client into JSON for a 1.0.0 client', async () => {
    const name = `mixed-${Math.random().toString(36).slice(2, 8)}`;
    const got: unknown[] = [];
    const v1 = client('1.0.0')
      .channel(name)
      .on('broadcast', { event: 'hello' }, (m) => got.push(m));
    const v2 = client('2.0.0').channel(name);
    await Promise.all([subscribe(v1), subscribe(v2)]);
    await v2.send({ type: 'broadcast', event: 'hello', payload: { from: 'v2' } });
    const message = await until('the broadcast', () => got[0]);
    expect(message).toEqual({ type: 'broadcast', event: 'hello', payload: { from: 'v2' } });
  });
});
