// Projects' own statuses replaced the four fixed columns (the `task_status` enum). A database that
// had tasks in all four must come through the migrations with every task in the same column, in the
// same order, its updated_at untouched, and the log of past moves naming the columns as they are
// titled. Made here as on a hosted project: a new database given the platform's schemas, the
// migrations before the change applied as `postgres`, tasks written the old way, then the rest.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, bootstrap } from '../../emulator/db/migrate.ts';
import { dbUrl } from '../support/db.ts';
import { projectRoot } from '../support/private-backend.ts';

/** The first migration of project statuses: everything before it is the old schema. */
const STATUSES = '20261128100000';

function withDatabase(url: string, database: string, user?: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  if (user) {
    u.username = user;
    u.password = 'postgres';
  }
  return u.toString();
}

/** A project root whose supabase/migrations holds only the migrations before `version`. */
function migrationsBefore(version: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'crewboard-old-migrations-'));
  const dir = path.join(root, 'supabase', 'migrations');
  mkdirSync(dir, { recursive: true });
  const all = path.join(projectRoot, 'supabase', 'migrations');
  for (const file of readdirSync(all).filter((f) => f.endsWith('.sql') && f < version))
    symlinkSync(path.join(all, file), path.join(dir, file));
  return root;
}

const database = `statuses_${randomBytes(6).toString('hex')}`;
let admin: pg.Client;
let db: pg.Client;
let oldRoot: string;

interface Row {
  id: string;
  project: string;
  column: string;
  position: string;
  updated_at: string;
}

let before: Row[];

beforeAll(async () => {
  admin = new pg.Client({ connectionString: dbUrl('superuser') });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const superuser = withDatabase(dbUrl('superuser'), database);
  await bootstrap(superuser);
  const asPostgres = withDatabase(superuser, database, 'postgres');
  oldRoot = migrationsBefore(STATUSES);
  await applyMigrations(asPostgres, oldRoot);

  db = new pg.Client({ connectionString: asPostgres });
  await db.connect();
  // Two projects, tasks in every column of each (several per column), and a move in the log.
  await db.query(`
    insert into public.workspaces (id, name, slug) values ('b1000000-0000-4000-8000-000000000001', 'Old', 'old-ws');
    insert into public.projects (id, workspace_id, name) values
      ('c1000000-0000-4000-8000-000000000001', 'b1000000-0000-4000-8000-000000000001', 'Website'),
      ('c1000000-0000-4000-8000-000000000002', 'b1000000-0000-4000-8000-000000000001', 'Hiring');
    insert into public.tasks (workspace_id, project_id, title, status)
    select 'b1000000-0000-4000-8000-000000000001', p.id, s.status || ' ' || n, s.status::public.task_status
      from (values ('c1000000-0000-4000-8000-000000000001'::uuid), ('c1000000-0000-4000-8000-000000000002'::uuid)) p (id)
     cross join (values ('backlog'), ('todo'), ('in_progress'), ('done')) s (status)
     cross join generate_series(1, 3) n;
    update public.tasks set status = 'done' where title = 'todo 2';
  `);
  before = (
    await db.query<Row>(
      `select id, project_id as project, status::text as column, position::text, updated_at::text
         from public.tasks order by id`,
    )
  ).rows;
  await db.end();

  await applyMigrations(asPostgres, projectRoot);
  db = new pg.Client({ connectionString: asPostgres });
  await db.connect();
}, 240_000);

afterAll(async () => {
  await db?.end();
  await admin?.query(`drop database if exists ${database} with (force)`);
  await admin?.end();
  if (oldRoot) rmSync(oldRoot, { recursive: true, force: true });
});

const TITLES: Record<string, string> = {
  backlog: 'Backlog',
  todo: 'To do',
  in_progress: 'In progress',
  done: 'Done',
};

describe('the migration to project statuses', () => {
  it('had tasks in all four columns of both projects to begin with', () => {
    expect(new Set(before.map((r) => `${r.project} ${r.column}`)).size).toBe(8);
  });

  it('keeps every task in its column, in its place, its updated_at untouched', async () => {
    const { rows } = await db.query<Row>(
      `select t.id, t.project_id as project, s.name as column, t.position::text, t.updated_at::text
         from public.tasks t join public.project_statuses s on s.id = t.status_id and s.project_id = t.project_id
        order by t.id`,
    );
    expect(rows).toEqual(before.map((r) => ({ ...r, column: TITLES[r.column] })));
  });

  it('gives each existing project the four columns, in board order, with their categories', async () => {
    const { rows } = await db.query<{ project: string; statuses: string[] }>(
      `select project_id as project, array_agg(name || ':' || category order by position) as statuses
         from public.project_statuses group by project_id order by project_id`,
    );
    expect(rows.map((r) => r.statuses)).toEqual([
      ['Backlog:backlog', 'To do:unstarted', 'In progress:started', 'Done:completed'],
      ['Backlog:backlog', 'To do:unstarted', 'In progress:started', 'Done:completed'],
    ]);
  });

  it('names the columns of past moves as they are titled, and keeps the boards built', async () => {
    const { rows } = await db.query<{ data: { from: string; to: string } }>(
      `select data from public.activity where kind = 'task_moved'`,
    );
    // "todo 2" of each project was moved to done.
    expect(rows.map((r) => [r.data.from, r.data.to])).toEqual([
      ['To do', 'Done'],
      ['To do', 'Done'],
    ]);
    const stale = await db.query(
      `select c.project_id from private.board_cache c
         join public.projects p on p.id = c.project_id
        where c.columns::text is distinct from (select b.columns::text from private.board_content(p.workspace_id, p.id, '{}', '{}') b)`,
    );
    expect(stale.rows).toEqual([]);
  });
});
