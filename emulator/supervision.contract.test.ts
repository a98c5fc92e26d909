// The backend heals: PostgreSQL and PostgREST are killed under a
// running writer, and the backend brings them back by itself — no acknowledged write lost, no row
// written twice by a retried create, REST answering again within 15 s, realtime's change stream
// resumed, and every exit and restart in the log. A backend of its own, since it kills its parts.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from './backend.ts';
import { startPostgres } from './db/postgres.ts';
import { freePort } from './lib/net.ts';
import { restartDelay } from './lib/supervise.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
const dataDir = path.resolve(projectRoot, `${process.env.TEST_DATA_DIR ?? '.data/test'}-supervision`);
const TABLE = 'supervision_writes';
/** The bound for service to come back without a restart. */
const RECOVERY_MS = 15_000;

let backend: Backend;
const clients: SupabaseClient[] = [];

async function sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const db = new pg.Client({ connectionString: backend.dbUrl });
  db.on('error', () => undefined);
  await db.connect();
  try {
    return (await db.query<R>(text, values)).rows;
  } finally {
    await db.end();
  }
}

async function until<T>(what: string, deadlineMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates rows through REST one after another, each under a token of its own. A create that gets no
 * 2xx (an error status, a cut connection, a timeout) may or may not have committed, so it is retried
 * with the same token as an upsert that ignores duplicates: the row exists once either way. A token
 * counts as acknowledged once a 2xx came back for it.
 */
class Writer {
  readonly acknowledged: string[] = [];
  readonly failures: Array<{ at: number; what: string }> = [];
  readonly acknowledgedAt: number[] = [];
  private running = true;
  private done: Promise<void>;

  constructor() {
    this.done = this.loop();
  }

  private async create(token: string, n: number): Promise<boolean> {
    try {
      const res = await fetch(`${backend.apiUrl}/rest/v1/${TABLE}?on_conflict=token`, {
        method: 'POST',
        headers: {
          apikey: backend.serviceRoleKey,
          Authorization: `Bearer ${backend.serviceRoleKey}`,
          'Content-Type': 'application/json',
          Prefer: 'resolution=ignore-duplicates,return=minimal',
        },
        body: JSON.stringify({ token, n }),
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer();
      if (res.ok) return true;
      this.failures.push({ at: Date.now(), what: String(res.status) });
    } catch (error) {
      this.failures.push({ at: Date.now(), what: (error as Error).message });
    }
    return false;
  }

  private async loop(): Promise<void> {
    let n = 0;
    while (this.running) {
      n += 1;
      const token = randomUUID();
      while (!(await this.create(token, n))) {
        if (!this.running) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      this.acknowledged.push(token);
      this.acknowledgedAt.push(Date.now());
    }
  }

  /**
   * After a kill at `since`: resolves with the time of the first failed write after it (a write in
   * flight may still be answered first) and of the first acknowledgement after that failure.
   */
  async outage(since: number): Promise<{ failedAt: number; backAt: number }> {
    const failedAt = await until(
      'a write to fail',
      5000,
      async () => this.failures.find((f) => f.at >= since)?.at,
    );
    const backAt = await until('an acknowledged write', RECOVERY_MS + 5000, async () =>
      this.acknowledgedAt.find((at) => at > failedAt),
    );
    return { failedAt, backAt };
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

/** Every acknowledged token is in the table exactly once, and no token twice. */
async function expectAllWritesKept(writer: Writer): Promise<void> {
  const rows = await sql<{ token: string; copies: number }>(
    `select token::text, count(*)::int as copies from ${TABLE} group by token`,
  );
  const copies = new Map(rows.map((r) => [r.token, r.copies]));
  const missing = writer.acknowledged.filter((t) => !copies.has(t));
  expect(missing, 'acknowledged writes missing after the restart').toEqual([]);
  expect(rows.filter((r) => r.copies > 1)).toEqual([]);
}

function logText(): string {
  return readFileSync(path.join(dataDir, 'backend.log'), 'utf8');
}

beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  backend = await startBackend({
    projectRoot,
    dataDir,
    apiPort: 0,
    dbPort: 0,
    mailPort: 0,
    smtpPort: 0,
    fallbackToFreePorts: true,
  });
  await sql(`
    create table ${TABLE} (
      id bigint generated always as identity primary key,
      token uuid not null unique,
      n int not null,
      created_at timestamptz not null default now()
    );
    grant select, insert, update on ${TABLE} to service_role;
    alter publication supabase_realtime add table ${TABLE};
    notify pgrst, 'reload schema';
  `);
  const apikey = { apikey: backend.serviceRoleKey, Authorization: `Bearer ${backend.serviceRoleKey}` };
  await until('PostgREST to know the table', 10_000, async () =>
    (await fetch(`${backend.apiUrl}/rest/v1/${TABLE}?limit=0`, { headers: apikey })).ok ? true : undefined,
  );
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.removeAllChannels();
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a supervised backend', () => {
  it('brings PostgreSQL back after a kill, with every acknowledged write kept and auth health 503 meanwhile', async () => {
    const writer = new Writer();
    await until('the writer to get going', 10_000, async () =>
      writer.acknowledged.length >= 20 ? true : undefined,
    );
    const pid = backend.childPids().postgres;
    expect(pid).toBeDefined();

    const killedAt = Date.now();
    process.kill(pid!, 'SIGKILL');
    // While it is down, auth's health says so (GoTrue would say 200; see emulator/README.md).
    const downHealth = await until('auth health to report the database down', 5000, async () => {
      const res = await fetch(`${backend.apiUrl}/auth/v1/health`, { headers: { apikey: backend.anonKey } });
      return res.status === 503 ? res.status : undefined;
    });
    expect(downHealth).toBe(503);

    const { backAt } = await writer.outage(killedAt);
    expect(backAt - killedAt).toBeLessThan(RECOVERY_MS);

    // A few more writes on the recovered server, then the whole history is checked.
    const count = writer.acknowledged.length;
    await until('writes after recovery', 10_000, async () =>
      writer.acknowledged.length >= count + 20 ? true : undefined,
    );
    await writer.stop();
    await expectAllWritesKept(writer);

    const healthy = await fetch(`${backend.apiUrl}/auth/v1/health`, { headers: { apikey: backend.anonKey } });
    expect(healthy.status).toBe(200);
    const restarted = backend.childPids().postgres;
    expect(restarted).toBeDefined();
    expect(restarted).not.toBe(pid);
    expect(alive(pid!)).toBe(false);
    expect(logText()).toContain(`postgres (pid ${pid}) exited unexpectedly: killed by SIGKILL`);
    expect(logText()).toMatch(new RegExp(`postgres restarted \\(pid ${restarted}\\)`));
  });

  it('brings PostgREST back after a kill, with every acknowledged write kept', async () => {
    const writer = new Writer();
    await until('the writer to get going', 10_000, async () =>
      writer.acknowledged.length >= 20 ? true : undefined,
    );
    const pid = backend.childPids().postgrest;
    expect(pid).toBeDefined();

    const killedAt = Date.now();
    process.kill(pid!, 'SIGKILL');
    const { backAt } = await writer.outage(killedAt);
    expect(backAt - killedAt).toBeLessThan(RECOVERY_MS);

    const count = writer.acknowledged.length;
    await until('writes after recovery', 10_000, async () =>
      writer.acknowledged.length >= count + 20 ? true : undefined,
    );
    await writer.stop();
    await expectAllWritesKept(writer);

    const restarted = backend.childPids().postgrest;
    expect(restarted).toBeDefined();
    expect(restarted).not.toBe(pid);
    expect(logText()).toContain(`postgrest (pid ${pid}) exited unexpectedly: killed by SIGKILL`);
    expect(logText()).toMatch(new RegExp(`postgrest restarted \\(pid ${restarted}\\)`));
  });

  it('resumes postgres_changes for a channel that stayed subscribed while PostgreSQL was killed', async () => {
    const client = createClient(backend.apiUrl, backend.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
    clients.push(client);
    const seen: number[] = [];
    await new Promise<void>((resolve, reject) => {
      let joined = false;
      let listening = false;
      client
        .channel('supervision')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: TABLE }, (change) => {
          seen.push((change.new as { n: number }).n);
        })
        .on('system', {}, (payload: { extension?: string; status?: string; message?: string }) => {
          if (payload.extension !== 'postgres_changes') return;
          if (payload.status !== 'ok') reject(new Error(payload.message));
          listening = true;
          if (joined) resolve();
        })
        .subscribe((status, error) => {
          if (status === 'SUBSCRIBED') {
            joined = true;
            if (listening) resolve();
          } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
            reject(error ?? new Error(status));
          }
        });
    });
    await sql(`insert into ${TABLE} (token, n) values ($1, -1)`, [randomUUID()]);
    await until('the change before the kill', 5000, async () => (seen.includes(-1) ? true : undefined));

    const pid = backend.childPids().postgres!;
    process.kill(pid, 'SIGKILL');
    await until('PostgreSQL to be back', RECOVERY_MS, async () => {
      const now = backend.childPids().postgres;
      return now !== undefined && now !== pid ? now : undefined;
    });
    // The first insert that succeeds after the restart is one the stream must bring, exactly once.
    await until('an insert after the restart', RECOVERY_MS, async () => {
      await sql(`insert into ${TABLE} (token, n) values ($1, -2)`, [randomUUID()]);
      return true;
    });
    await until('the change after the restart', RECOVERY_MS, async () =>
      seen.includes(-2) ? true : undefined,
    );
    expect(seen.filter((n) => n === -1)).toHaveLength(1);
    expect(seen.filter((n) => n === -2)).toHaveLength(1);
    expect(logText()).toMatch(
      /realtime replication: resumed from slot supabase_realtime_replication_slot_\w+/,
    );
  });

  it('stops without restarting anything, and leaves no replication slot behind', async () => {
    const { postgres, postgrest } = backend.childPids();
    const slots = await sql<{ slot_name: string; temporary: boolean }>(
      'select slot_name, temporary from pg_replication_slots',
    );
    // A permanent slot, so that it outlives a crash of the database.
    expect(slots).toEqual([
      { slot_name: expect.stringMatching(/^supabase_realtime_replication_slot_/), temporary: false },
    ]);
    const logBefore = logText().length;
    await backend.stop();
    expect(alive(postgres!)).toBe(false);
    expect(alive(postgrest!)).toBe(false);
    // A restart would come after the first backoff delay: wait out a few of them before looking.
    await new Promise((r) => setTimeout(r, restartDelay(0) * 3));
    expect(backend.childPids()).toEqual({ postgres: undefined, postgrest: undefined });
    expect(logText().slice(logBefore)).not.toMatch(/exited unexpectedly|restarted/);

    // The database alone, to look: the stop dropped the slot (it would hold WAL for nobody).
    const db = await startPostgres({ dataDir, port: await freePort() });
    try {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query('select slot_name from pg_replication_slots');
      await client.end();
      expect(rows).toEqual([]);
    } finally {
      await db.stop();
    }
  });
});
