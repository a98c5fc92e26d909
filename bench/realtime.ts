// Realtime: how long a committed row change takes to reach subscribers through the unmodified
// supabase-js client, with 1 and with 50 signed-in subscribers on a table with RLS (so every change is
// checked once per subscriber, as realtime does).
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import pg from 'pg';
import { NodeWebSocket } from '../app/utils/websocket.server.ts';
import type { Backend } from '../emulator/backend.ts';

export interface Latency {
  p50: number;
  p95: number;
  deliveries: number;
}

const CHANGES = 100;
const SPACING_MS = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

async function userToken(backend: Backend, sub: string): Promise<string> {
  return new jose.SignJWT({ role: 'authenticated', sub, aud: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(backend.jwtSecret));
}

async function measure(
  backend: Backend,
  db: pg.Client,
  subscribers: number,
  round: number,
): Promise<Latency> {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const clients: SupabaseClient[] = [];
  for (let i = 0; i < subscribers; i++) {
    const client = createClient(backend.apiUrl, backend.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: NodeWebSocket },
    });
    await client.realtime.setAuth(await userToken(backend, randomUUID()));
    clients.push(client);
  }
  await Promise.all(
    clients.map(
      (client, i) =>
        new Promise<void>((resolve, reject) => {
          setTimeout(
            () => reject(new Error('a subscriber did not get postgres_changes in 20 s')),
            20_000,
          ).unref();
          client
            .channel(`bench-${round}-${i}`)
            .on<{ id: number }>(
              'postgres_changes',
              { event: 'INSERT', schema: 'public', table: 'bench_changes', filter: `round=eq.${round}` },
              (payload) => {
                const t0 = sentAt.get(payload.new.id);
                if (t0 !== undefined) latencies.push(performance.now() - t0);
              },
            )
            .on('system', {}, (p: { extension: string; status: string; message: string }) => {
              if (p.extension !== 'postgres_changes') return;
              if (p.status === 'ok') resolve();
              else reject(new Error(p.message));
            })
            .subscribe();
        }),
    ),
  );
  for (let i = 0; i < CHANGES; i++) {
    const id = round * 10_000 + i;
    sentAt.set(id, performance.now());
    await db.query('insert into public.bench_changes (id, round) values ($1, $2)', [id, round]);
    await new Promise((r) => setTimeout(r, SPACING_MS));
  }
  const expected = CHANGES * subscribers;
  for (let waited = 0; latencies.length < expected && waited < 10_000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await Promise.all(clients.map((c) => c.removeAllChannels()));
  if (latencies.length < expected) throw new Error(`only ${latencies.length} of ${expected} changes arrived`);
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), deliveries: latencies.length };
}

export async function realtimeLatency(backend: Backend): Promise<{ one: Latency; fifty: Latency }> {
  const db = new pg.Client({ connectionString: backend.dbUrl });
  await db.connect();
  try {
    await db.query(`
      create table if not exists public.bench_changes (id int primary key, round int not null, at timestamptz not null default now());
      truncate public.bench_changes;
      alter table public.bench_changes enable row level security;
      drop policy if exists "signed-in people read" on public.bench_changes;
      create policy "signed-in people read" on public.bench_changes for select to authenticated using (true);
    `);
    await db
      .query('alter publication supabase_realtime add table public.bench_changes')
      .catch(() => undefined);
    const one = await measure(backend, db, 1, 1);
    const fifty = await measure(backend, db, 50, 2);
    return { one, fifty };
  } finally {
    await db.end();
  }
}
