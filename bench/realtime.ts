// Realtime: how long a new task takes to reach the people watching its board, through the unmodified
// supabase-js client subscribed as the board subscribes (app/components/live.tsx: the project's
// tasks), on the app's own table and policies: every change is checked against the tasks' RLS
// (membership, session, assurance level) once per subscriber, with real sessions.
//
// One board is watched by 1 member, another by 50, all subscribed throughout. New tasks alternate
// between the two boards, so both figures are taken under the same load at the same time, and each
// task gives one sample: the time until the last watcher of its board has it. 100 samples each.
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import type { BenchBackend } from './backend.ts';

export interface Latency {
  p50: number;
  p95: number;
  samples: number;
}

const SAMPLES = 100;
const WARM_UP = 20;
const SPACING_MS = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

/** `count` confirmed users signed in through the auth API: real sessions, as RLS checks them. */
async function members(backend: BenchBackend, count: number): Promise<Array<{ id: string; token: string }>> {
  const admin = { apikey: backend.serviceRoleKey, Authorization: `Bearer ${backend.serviceRoleKey}` };
  const people: Array<{ id: string; token: string }> = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-rt-${randomUUID().slice(0, 8)}@example.test`;
    const password = 'bench-password-1';
    const created = await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, email_confirm: true }),
    });
    const { id } = (await created.json()) as { id: string };
    const signedIn = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { access_token: token } = (await signedIn.json()) as { access_token: string };
    people.push({ id, token });
  }
  return people;
}

/** A workspace of `people` (the first owns it) with one project; returns both ids. */
async function board(db: pg.Client, people: Array<{ id: string }>): Promise<{ ws: string; project: string }> {
  const { rows } = await db.query<{ ws: string; project: string }>(
    `with ws as (insert into public.workspaces (name, slug, created_by)
                 values ('Bench', 'rt-' || substr(md5(random()::text), 1, 10), $1) returning id),
          p as (insert into public.projects (workspace_id, name) select id, 'Live board' from ws returning id)
     select ws.id as ws, p.id as project from ws, p`,
    [people[0]?.id],
  );
  const made = rows[0];
  if (!made) throw new Error('no board');
  await db.query(
    `insert into public.workspace_members (workspace_id, user_id, role)
     select $1, u, case when n = 1 then 'owner' else 'member' end::public.workspace_role
       from unnest($2::uuid[]) with ordinality as m(u, n)`,
    [made.ws, people.map((p) => p.id)],
  );
  return made;
}

/** Subscribes each person's own client to the board's tasks; calls `heard` with each new title. */
async function watch(
  backend: BenchBackend,
  people: Array<{ token: string }>,
  project: string,
  heard: (title: string) => void,
): Promise<SupabaseClient[]> {
  return Promise.all(
    people.map(async ({ token }, i) => {
      const client = createClient(backend.apiUrl, backend.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      await client.realtime.setAuth(token);
      await new Promise<void>((resolve, reject) => {
        setTimeout(() => reject(new Error('a watcher did not get postgres_changes in 20 s')), 20_000).unref();
        client
          .channel(`board:${project}:${i}`)
          .on<{ title: string }>(
            'postgres_changes',
            { event: 'INSERT', schema: 'public', table: 'tasks', filter: `project_id=eq.${project}` },
            (payload) => heard(payload.new.title),
          )
          .on('system', {}, (p: { extension: string; status: string; message: string }) => {
            if (p.extension !== 'postgres_changes') return;
            if (p.status === 'ok') resolve();
            else reject(new Error(p.message));
          })
          .subscribe();
      });
      return client;
    }),
  );
}

export async function realtimeLatency(backend: BenchBackend): Promise<{ one: Latency; fifty: Latency }> {
  const db = new pg.Client({ connectionString: backend.dbUrl });
  await db.connect();
  const clients: SupabaseClient[] = [];
  try {
    const people = await members(backend, 51);
    const alone = await board(db, people.slice(0, 1));
    const crowd = await board(db, people.slice(1));
    // Per task: when it was committed, how many of its watchers have it, and when the last did.
    const sentAt = new Map<string, number>();
    const arrivals = new Map<string, number>();
    const done = new Map<string, number>();
    const listener = (watchers: number) => (title: string) => {
      const t0 = sentAt.get(title);
      if (t0 === undefined) return;
      const n = (arrivals.get(title) ?? 0) + 1;
      arrivals.set(title, n);
      if (n === watchers) done.set(title, performance.now() - t0);
    };
    clients.push(...(await watch(backend, people.slice(0, 1), alone.project, listener(1))));
    clients.push(...(await watch(backend, people.slice(1), crowd.project, listener(50))));

    const titles = { one: [] as string[], fifty: [] as string[] };
    for (let i = 0; i < 2 * (WARM_UP + SAMPLES); i++) {
      const target = i % 2 === 0 ? alone : crowd;
      const title = `Live ${i} ${randomUUID().slice(0, 8)}`;
      if (i >= 2 * WARM_UP) (target === alone ? titles.one : titles.fifty).push(title);
      sentAt.set(title, performance.now());
      await db.query('insert into public.tasks (workspace_id, project_id, title) values ($1, $2, $3)', [
        target.ws,
        target.project,
        title,
      ]);
      await new Promise((r) => setTimeout(r, SPACING_MS));
    }
    const deadline = Date.now() + 20_000;
    while (done.size < sentAt.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const latency = (list: string[]): Latency => {
      const values = list.map((t) => done.get(t));
      const missing = values.filter((v) => v === undefined).length;
      if (missing > 0) throw new Error(`${missing} of ${list.length} tasks did not reach all their watchers`);
      const sorted = values.map(Number).sort((a, b) => a - b);
      return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), samples: sorted.length };
    };
    return { one: latency(titles.one), fifty: latency(titles.fifty) };
  } finally {
    await Promise.all(clients.map((c) => c.removeAllChannels()));
    await db.end();
  }
}
