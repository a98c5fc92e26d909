// Brings a database to the state of a hosted project plus this project's migrations.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SetupProblem } from '../lib/problem.ts';

const BOOTSTRAP_SQL = new URL('./bootstrap.sql', import.meta.url);

/** Serialises bootstrap and migrations when two processes start against one server. */
const SETUP_LOCK = 4242_0001;

/**
 * Runs bootstrap.sql as a superuser. A DATABASE_URL that names an ordinary role (for example the
 * `postgres` of another local backend) is accepted only on a server bootstrap has already prepared.
 */
export async function bootstrap(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SETUP_LOCK]);
    const { rows } = await client.query<{ superuser: boolean; prepared: boolean }>(
      `select rolsuper as superuser, to_regnamespace('supautils_local') is not null as prepared
         from pg_roles where rolname = current_user`,
    );
    if (rows[0]?.superuser) await client.query(readFileSync(BOOTSTRAP_SQL, 'utf8'));
    else if (!rows[0]?.prepared)
      throw new SetupProblem(
        'The database at DATABASE_URL has no Supabase platform schema, and its user is not a superuser to create it.',
        'name a superuser (supabase_admin on Supabase images) in DATABASE_URL for the first start.',
      );
  } finally {
    await client.query('select pg_advisory_unlock($1)', [SETUP_LOCK]).catch(() => undefined);
    await client.end();
  }
}

export async function hasMigrationHistory(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ present: boolean }>(
      "select to_regclass('supabase_migrations.schema_migrations') is not null as present",
    );
    return rows[0]?.present ?? false;
  } finally {
    await client.end();
  }
}

export function supabaseCli(): string {
  const require = createRequire(import.meta.url);
  const pkg = `@supabase/cli-${process.platform}-${process.arch}`;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'supabase');
  } catch {
    throw new SetupProblem(
      `The Supabase CLI binary for this platform (${pkg}) is not installed.`,
      'run `npm install` (the `supabase` package brings it as an optional dependency).',
    );
  }
}

/** Runs the real Supabase CLI, so migrations apply exactly as `supabase db push` applies them. */
export function runSupabaseCli(args: string[], projectRoot: string): Promise<string> {
  const bin = supabaseCli();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...args, '--workdir', projectRoot], {
      cwd: projectRoot,
      env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', SUPABASE_YES: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else
        reject(
          new SetupProblem(
            `\`supabase ${args[0]} ${args[1] ?? ''}\` failed: ${lastLines(err || out)}${hostedToo(err || out)}`,
            'correct the migration or the supabase/config.toml setting it names, then start again.',
          ),
        );
    });
  });
}

/**
 * Migrations run as a `postgres` that is no superuser, as on hosted projects: a statement refused
 * for want of privilege (SQLSTATE 42501) would be refused by `supabase db push` too.
 */
export function hostedToo(output: string): string {
  return /\(SQLSTATE 42501\)|must be owner of|permission denied/.test(output)
    ? '\n  A hosted Supabase project would refuse this too: its postgres is not a superuser and owns no ' +
        'platform table (see "Roles" in emulator/README.md).'
    : '';
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-6).join('\n  ');
}

/**
 * The Supabase CLI's migration history table, made with the statements the CLI makes it with, as the
 * same user, before the first `migration up`. The CLI reads the table before it creates it and takes
 * "relation does not exist" for an empty history: correct, but PostgreSQL logs that ERROR, and a
 * healthy first start logs none.
 */
async function prepareMigrationHistory(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
      alter table supabase_migrations.schema_migrations add column if not exists statements text[];
      alter table supabase_migrations.schema_migrations add column if not exists name text;
    `);
  } finally {
    await client.end();
  }
}

/**
 * `supabase migration up` reads nothing from config.toml but validates all of it, and the CLI bundled
 * here (3.x) refuses keys older files still have (`[inbucket]`, which Supabase's own client suites
 * use; config.ts reads both). So it runs in a workdir of its own that holds only the migrations.
 */
export async function applyMigrations(url: string, projectRoot: string): Promise<void> {
  const dir = path.join(projectRoot, 'supabase', 'migrations');
  if (!existsSync(dir)) return;
  const workdir = mkdtempSync(path.join(tmpdir(), 'crewboard-migrations-'));
  try {
    mkdirSync(path.join(workdir, 'supabase'));
    symlinkSync(dir, path.join(workdir, 'supabase', 'migrations'));
    await prepareMigrationHistory(url);
    await runSupabaseCli(['migration', 'up', `--remote=${url}`, '--include-all'], workdir);
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

export async function seed(url: string, projectRoot: string): Promise<boolean> {
  const file = path.join(projectRoot, 'supabase', 'seed.sql');
  if (!existsSync(file)) return false;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(readFileSync(file, 'utf8'));
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw new SetupProblem(
      `supabase/seed.sql failed: ${(error as Error).message}${hostedToo((error as Error).message)}`,
      'correct the seed file and run `npm run db:reset`.',
    );
  } finally {
    await client.end();
  }
}
