// The database behind a backend, for what no API role may do: reading private tables, writing rows
// past the policies, dating rows back, defining a function for a test. Every connection made here
// is ended by whoever made it: `sql` around its one statement, `useDb` after the file's tests.
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { backend } from './backend.ts';

/** `postgres`, the role migrations run as (no superuser, as on a hosted project); or the superuser. */
export type DbRole = 'postgres' | 'superuser';

/** A backend's database URL (the shared test backend's by default) as `role`. */
export function dbUrl(role: DbRole = 'postgres', url = backend().dbUrl): string {
  if (role === 'postgres') return url;
  const u = new URL(url);
  // The local superuser, as in Supabase's image (emulator/db/postgres.ts).
  u.username = 'supabase_admin';
  u.password = 'postgres';
  return u.toString();
}

/**
 * A connection, not yet connected. A connection the server drops (a test that kills the database)
 * reports an 'error' event; it is ignored here, and the next query on it fails instead.
 */
export function dbClient(role: DbRole = 'postgres', url?: string): pg.Client {
  const client = new pg.Client({ connectionString: dbUrl(role, url) });
  client.on('error', () => undefined);
  return client;
}

/** A superuser connection to the shared test backend, not yet connected; the caller ends it. */
export function superuserDb(): pg.Client {
  return dbClient('superuser');
}

/** One statement on a connection of its own, opened and ended around it; its rows. */
export async function sql<R extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
  options: { role?: DbRole; url?: string } = {},
): Promise<R[]> {
  const client = dbClient(options.role, options.url);
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * One connection for the tests of a file: connected before them, ended after them. Call it at the
 * top of the file; the returned function gives the connection inside hooks and tests.
 */
export function useDb(role: DbRole = 'postgres'): () => pg.Client {
  let client: pg.Client | undefined;
  beforeAll(async () => {
    client = dbClient(role);
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });
  return () => {
    if (!client) throw new Error('useDb: the connection is made before the first test, not at import');
    return client;
  };
}

/** Waits (up to 5 s) until the backend `pid` waits on a lock; whether it does. */
export async function waitsOnLock(client: pg.Client, pid: number | undefined): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await client.query<{ waiting: boolean }>(
      `select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1`,
      [pid],
    );
    if (rows[0]?.waiting === true) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
