// The database parameters a hosted project sets where an app can see them, read from
// supabase/postgres ansible/files/postgresql_config/postgresql.conf.j2 and migrations/schema-15.sql.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from '../../tests/support/backend.ts';

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: backend().dbUrl });
  await db.connect();
});

afterAll(async () => {
  await db.end();
});

async function lines(sql: string): Promise<string[]> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(sql);
  return rows.map((row) => row['QUERY PLAN']);
}

describe('database settings as on a hosted project', () => {
  it('computes query identifiers: EXPLAIN VERBOSE shows one, and pg_stat_statements counts queries', async () => {
    const plan = await lines('explain (verbose) select 1');
    expect(plan.some((line) => /^Query Identifier: -?\d+$/.test(line))).toBe(true);
    const { rows } = await db.query<{ schema: string }>(
      `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_stat_statements'`,
    );
    expect(rows).toEqual([{ schema: 'extensions' }]);
    const calls = await db.query<{ n: number }>(
      'select count(*)::int as n from extensions.pg_stat_statements where calls > 0',
    );
    expect(calls.rows[0]?.n).toBeGreaterThan(0);
  });

  it('prints times in UTC, floats with extra_float_digits = 0, and searches text in English', async () => {
    const { rows } = await db.query<Record<string, string>>(
      `select current_setting('TimeZone') as zone,
              '2024-01-02 03:04:05+00'::timestamptz::text as stamp,
              (0.1::float8 + 0.2::float8)::text as sum,
              to_tsvector('The dogs were running')::text as vector`,
    );
    expect(rows[0]).toEqual({
      zone: 'UTC',
      stamp: '2024-01-02 03:04:05+00',
      sum: '0.3',
      vector: "'dog':2 'run':4",
    });
  });
});
