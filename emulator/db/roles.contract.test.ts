// Migrations run as hosted runs them: as a `postgres` that is no superuser, owns no platform table
// and reaches auth, storage and realtime only through its grants and what supautils allows
// (emulator/README.md, "Roles"). Each test works in a database of its own on the test server.
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from '../../tests/support/backend.ts';
import { applyMigrations, bootstrap } from './migrate.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const database = `roles_${process.pid}_${Date.now()}`;

function as(role: string, db = database): string {
  const url = new URL(backend().dbUrl);
  url.username = role;
  url.password = 'postgres';
  url.pathname = `/${db}`;
  return url.toString();
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Runs `sql` as postgres in a transaction that is rolled back; resolves to the error, if any. */
async function tryAsPostgres(sql: string): Promise<pg.DatabaseError | undefined> {
  const client = new pg.Client({ connectionString: as('postgres') });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(sql);
    return undefined;
  } catch (error) {
    return error as pg.DatabaseError;
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end();
  }
}

const adminMemberships = async () =>
  (
    await query<{ rolname: string }>(
      as('postgres'),
      `select r.rolname from pg_roles r
        where r.rolname in ('supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin', 'supabase_realtime_admin')
          and pg_has_role('postgres', r.oid, 'member')`,
    )
  ).map((r) => r.rolname);

beforeAll(async () => {
  await query(as('supabase_admin', 'postgres'), `create database ${database} owner supabase_admin`);
  await bootstrap(as('supabase_admin'));
  await applyMigrations(as('postgres'), projectRoot);
}, 120_000);

afterAll(async () => {
  await query(as('supabase_admin', 'postgres'), `drop database if exists ${database} with (force)`);
});

describe('the role that runs migrations', () => {
  it('is postgres, not a superuser and no member of the service admin roles', async () => {
    const [role] = await query<{ rolsuper: boolean; rolbypassrls: boolean; rolcreaterole: boolean }>(
      as('postgres'),
      "select rolsuper, rolbypassrls, rolcreaterole from pg_roles where rolname = 'postgres'",
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: true, rolcreaterole: true });
    expect(await adminMemberships()).toEqual([]);
  });

  it('applied every migration in supabase/migrations, and owns what they made', async () => {
    const files = readdirSync(path.join(projectRoot, 'supabase', 'migrations'))
      .map((f) => /^(\d+)_/.exec(f)?.[1])
      .filter((v): v is string => v !== undefined)
      .sort();
    const applied = await query<{ version: string }>(
      as('postgres'),
      'select version from supabase_migrations.schema_migrations order by version',
    );
    expect(applied.map((r) => r.version)).toEqual(files);
    const owners = await query<{ owner: string }>(
      as('postgres'),
      `select distinct pg_get_userbyid(relowner) as owner from pg_class
        where relnamespace = 'public'::regnamespace and relkind in ('r', 'v', 'S')`,
    );
    expect(owners).toEqual([{ owner: 'postgres' }]);
  });
});

describe('what supautils allows postgres on platform tables', () => {
  it('creates, alters and drops policies on storage.objects, storage.buckets and realtime.messages', async () => {
    for (const table of ['storage.objects', 'storage.buckets', 'realtime.messages']) {
      expect(
        await tryAsPostgres(`
          create policy probe on ${table} for select to authenticated using (true);
          alter policy probe on ${table} using (false);
          drop policy probe on ${table};
          drop policy if exists probe on ${table};`),
      ).toBeUndefined();
    }
    expect(await adminMemberships()).toEqual([]);
  });

  it('creates and drops triggers on auth.users', async () => {
    expect(
      await tryAsPostgres(`
        create function public.probe() returns trigger language plpgsql as $$ begin return new; end $$;
        create trigger probe after insert on auth.users for each row execute function public.probe();
        drop trigger probe on auth.users;`),
    ).toBeUndefined();
  });

  it('lends nothing beyond the statement: the rest of its transaction runs as plain postgres', async () => {
    const error = await tryAsPostgres(`
      create policy probe on storage.objects for select using (true);
      alter table storage.objects add column x int;`);
    expect(error?.message).toBe('must be owner of table objects');
  });

  it.each([
    ['alter table storage.objects add column x int', 'must be owner of table objects'],
    ['create index on storage.objects (name)', 'must be owner of table objects'],
    ['comment on table auth.users is $$x$$', 'must be owner of table users'],
    ['alter table auth.users enable row level security', 'must be owner of table users'],
    ['create policy probe on storage.migrations using (true)', 'must be owner of table migrations'],
    ['create table auth.extra (id int)', 'permission denied for schema auth'],
    ['create table storage.extra (id int)', 'permission denied for schema storage'],
    [
      'delete from storage.objects',
      'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
    ],
    ['grant supabase_storage_admin to postgres', 'permission denied to grant role "supabase_storage_admin"'],
    ['alter role supabase_auth_admin set search_path = public', 'permission denied to alter role'],
    ['grant pg_read_server_files to anon', 'permission denied to grant role "pg_read_server_files"'],
    ['create event trigger probe on ddl_command_end execute function pg_catalog.now()', /permission denied/],
  ])('refuses `%s` as hosted does', async (sql, message) => {
    const error = await tryAsPostgres(sql);
    expect(error?.message).toMatch(message instanceof RegExp ? message : new RegExp(`^${escape(message)}`));
    expect(await adminMemberships()).toEqual([]);
  });

  it('refuses a policy on a platform table supautils does not list, with the hosted line', async () => {
    const error = await tryAsPostgres('create policy probe on storage.migrations for select using (true)');
    expect(error?.code).toBe('42501');
    expect(error?.hint).toMatch(/Hosted Supabase refuses this too/);
  });
});

// supautils' reserved_roles lists `anon*`, `authenticated*`, `service_role*` and `authenticator*`: the
// `*` lets postgres change their settings within privileged_role_allowed_configs (supabase/supautils
// src/supautils.c, T_AlterRoleSetStmt; the lists in supabase/postgres supautils.conf.j2), and
// PostgreSQL 16+ ADMIN on the first three lets it grant them and set their ordinary settings.
describe('what supautils allows postgres on the API roles', () => {
  it("runs postgrest-js's fixture lines: PostgREST settings on authenticator", async () => {
    expect(
      await tryAsPostgres(`
        alter role authenticator set pgrst.db_plan_enabled to 'true';
        alter role authenticator set pgrst.db_aggregates_enabled to 'true';
        alter role authenticator set pgrst.db_tx_end to 'commit-allow-override';`),
    ).toBeUndefined();
  });

  it('sets and changes settings of anon, authenticated and service_role, and grants them', async () => {
    expect(
      await tryAsPostgres(`
        alter role anon set statement_timeout = '5s';
        alter role authenticated set session_replication_role = replica;
        alter role service_role reset statement_timeout;
        create role probe_member nologin;
        grant anon, authenticated, service_role to probe_member;
        set session_replication_role = replica;`),
    ).toBeUndefined();
  });

  it.each([
    ['alter role authenticator set session_preload_libraries = $$$$', /^permission denied to set parameter/],
    ['alter role anon set log_statement = $$all$$', /^permission denied to set parameter/],
    ['alter role anon superuser', /^permission denied to alter role/],
    ['alter role supabase_auth_admin set search_path = public', /^permission denied to alter role/],
    ['grant supabase_admin to postgres', /^permission denied to grant role/],
  ])('refuses `%s` as hosted does', async (sql, message) => {
    expect((await tryAsPostgres(sql))?.message).toMatch(message);
  });

  it('cannot drop an API role (hosted: reserved; here: what depends on it)', async () => {
    expect((await tryAsPostgres('drop role authenticated'))?.message).toMatch(
      /^role "authenticated" cannot be dropped because some objects depend on it/,
    );
  });
});

describe('the platform schemas as hosted sets them up for postgres', () => {
  it('lets postgres create objects in extensions (10000000000000_demote-postgres.sql)', async () => {
    expect(
      await tryAsPostgres(`
        create table extensions.probe (id int);
        create function extensions.probe() returns int language sql as 'select 1';`),
    ).toBeUndefined();
  });

  it('grants the API roles what postgres creates in storage (00000000000002-storage-schema.sql)', async () => {
    const client = new pg.Client({ connectionString: as('supabase_admin') });
    await client.connect();
    try {
      await client.query('begin');
      // Hosted postgres creates nothing in storage itself; the default privileges apply to what it
      // creates with a grant of CREATE (as supabase_admin's tooling gives it).
      await client.query('grant create on schema storage to postgres');
      await client.query('set role postgres');
      await client.query('create table storage.probe (id int)');
      await client.query('reset role');
      const { rows } = await client.query<{ role: string; ok: boolean }>(
        `select r as role, has_table_privilege(r, 'storage.probe', 'select, insert, update, delete') as ok
           from unnest(array['anon', 'authenticated', 'service_role']) as r`,
      );
      expect(rows).toEqual([
        { role: 'anon', ok: true },
        { role: 'authenticated', ok: true },
        { role: 'service_role', ok: true },
      ]);
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });

  it("gives PostgREST's role a lock timeout of 8 s (20231130133139_set_lock_timeout_to_authenticator_role.sql)", async () => {
    const [row] = await query<{ lock_timeout: string }>(as('authenticator'), 'show lock_timeout');
    expect(row?.lock_timeout).toBe('8s');
  });
});

describe('a migration that needs more than hosted allows', () => {
  it('fails with PostgreSQL’s error and a line saying hosted would refuse it too', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'crewboard-bad-migration-'));
    try {
      mkdirSync(path.join(root, 'supabase'), { recursive: true });
      cpSync(path.join(projectRoot, 'supabase', 'migrations'), path.join(root, 'supabase', 'migrations'), {
        recursive: true,
      });
      cpSync(path.join(projectRoot, 'supabase', 'config.toml'), path.join(root, 'supabase', 'config.toml'));
      cpSync(path.join(projectRoot, 'supabase', 'templates'), path.join(root, 'supabase', 'templates'), {
        recursive: true,
      });
      writeFileSync(
        path.join(root, 'supabase', 'migrations', '29990101000000_alter_storage_objects.sql'),
        'alter table storage.objects add column x int;\n',
      );
      const attempt = applyMigrations(as('postgres'), root);
      await expect(attempt).rejects.toThrow(/must be owner of table objects \(SQLSTATE 42501\)/);
      await expect(attempt).rejects.toThrow(/A hosted Supabase project would refuse this too/);
      const [column] = await query<{ n: string }>(
        as('postgres'),
        "select count(*) as n from information_schema.columns where table_schema = 'storage' and table_name = 'objects' and column_name = 'x'",
      );
      expect(column?.n).toBe('0');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
