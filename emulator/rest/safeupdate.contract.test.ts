// An UPDATE or DELETE through the REST API without a filter is refused, as on a hosted project, where
// authenticator's sessions preload safeupdate (supabase/postgres
// 20220224211803_fix-postgrest-supautils.sql; eradman/pg-safeupdate): SQLSTATE 21000, "DELETE
// requires a WHERE clause". The extension is missing here; emulator/db/bootstrap.sql stands in for it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, backend } from '../../tests/support/backend.ts';

const table = `safeupdate_probe_${process.pid}`;

async function sql(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: backend().dbUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await sql(`create table public.${table} (id int primary key, title text);
             insert into public.${table} values (1, 'one'), (2, 'two'), (3, 'three');`);
  // PostgREST reloads its schema cache on the DDL's notification; an update resolves its columns
  // there (a read does not), so wait until a filtered one works.
  for (let i = 0; i < 100; i++) {
    if (!(await adminClient().from(table).update({ title: 'one' }).eq('id', 1)).error) return;
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(async () => {
  await sql(`drop table if exists public.${table}`);
});

describe('safeupdate on the REST API', () => {
  it('refuses a delete and an update without a filter, and changes nothing', async () => {
    const deleted = await adminClient().from(table).delete();
    expect(deleted.error).toMatchObject({ code: '21000', message: 'DELETE requires a WHERE clause' });
    const updated = await adminClient().from(table).update({ title: 'x' });
    expect(updated.error).toMatchObject({ code: '21000', message: 'UPDATE requires a WHERE clause' });
    expect((await sql(`select count(*)::int as n from public.${table} where title <> 'x'`)).rows).toEqual([
      { n: 3 },
    ]);
  });

  it('lets filtered updates and deletes, upserts and other sessions through', async () => {
    const updated = await adminClient().from(table).update({ title: 'uno' }).eq('id', 1).select();
    expect(updated.error).toBeNull();
    expect(updated.data).toEqual([{ id: 1, title: 'uno' }]);
    const upserted = await adminClient().from(table).upsert({ id: 2, title: 'dos' }).select();
    expect(upserted.error).toBeNull();
    const deleted = await adminClient().from(table).delete().in('id', [1, 2]).select('id');
    expect(deleted.error).toBeNull();
    expect(deleted.data).toHaveLength(2);
    // safeupdate is loaded only in PostgREST's sessions: a migration or psql may delete everything.
    expect((await sql(`delete from public.${table}`)).rowCount).toBe(1);
  });
});
