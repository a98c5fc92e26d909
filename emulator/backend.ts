// Starts the whole local backend in order — database, bootstrap, migrations, PostgREST, mailbox,
// auth behind the gateway — and stops it in reverse.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { createAuthHandler, createAuthService } from './auth/server.ts';
import { loadSettings, type Environment, type Settings } from './config.ts';
import { startPostgres, type Database } from './db/postgres.ts';
import { applyMigrations, bootstrap, hasMigrationHistory, seed } from './db/migrate.ts';
import {
  callFunction,
  readSchedule,
  scheduleIntervalMs,
  startScheduler,
  type Scheduler,
} from './functions/scheduler.ts';
import { createFunctions, wallClockLimitMs, type Functions } from './functions/server.ts';
import { createGateway } from './gateway/gateway.ts';
import {
  ANON_KEY,
  JWT_SECRET,
  PUBLISHABLE_KEY,
  SECRET_KEY,
  SERVICE_ROLE_KEY,
  loadSigningKeys,
} from './keys.ts';
import { freePort, requirePortFree } from './lib/net.ts';
import { survivingRestarts } from './lib/pools.ts';
import { SetupProblem } from './lib/problem.ts';
import { type BackendOptions, PORT_VARIABLES, type PortOption } from './backend-options.ts';
import { startMailbox, type Mailbox } from './mail/mailbox.ts';
import { startSmtp } from './mail/smtp.ts';
import { createRealtime, prepareRealtimeConnection } from './realtime/server.ts';
import { startPostgrest, type Postgrest } from './rest/postgrest.ts';
import { createStorage } from './storage/server.ts';

export type { BackendOptions } from './backend-options.ts';

export interface Backend {
  apiUrl: string;
  dbUrl: string;
  mailUrl: string;
  /** SMTP into the mailbox, for the app's own emails (SMTP_URL). */
  smtpUrl: string;
  /** PostgREST itself, without the gateway (benchmarks compare the two). */
  postgrestUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  settings: Settings;
  startedInMs: number;
  seeded: boolean;
  /**
   * Process ids of the supervised children (PostgreSQL's postmaster, PostgREST), while they run;
   * the fault tests kill them. An external DATABASE_URL has no postgres pid.
   */
  childPids(): { postgres: number | undefined; postgrest: number | undefined };
  /** The Edge Functions served at /functions/v1/<name>, and their processes' pids. */
  functions: Pick<Functions, 'names' | 'pid'>;
  /** The scheduled functions' runs (supabase/schedule.toml), every FUNCTIONS_SCHEDULE_INTERVAL. */
  scheduler: Pick<Scheduler, 'runs'>;
  stop(): Promise<void>;
}

/** Data directories held by backends of this process (the lock file cannot tell them apart). */
const heldHere = new Set<string>();

function acquireLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'backend.lock');
  let holder: number | null = heldHere.has(dataDir) ? process.pid : null;
  if (holder === null && existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        holder = pid;
      } catch {
        // The process that wrote the lock is gone: the lock is stale.
      }
    }
  }
  if (holder !== null) {
    throw new SetupProblem(
      `Another backend (process ${holder}) is using the data directory ${dataDir}.`,
      'stop it first, or give this one its own directory with CREWBOARD_DATA_DIR.',
    );
  }
  writeFileSync(file, String(process.pid));
  heldHere.add(dataDir);
  return () => {
    heldHere.delete(dataDir);
    rmSync(file, { force: true });
  };
}

async function choosePort(
  wanted: number,
  fallback: boolean,
  what: string,
  variable: string,
  fromVariable: boolean,
  listensOnZero: boolean,
): Promise<number> {
  if (wanted === 0) return listensOnZero ? 0 : freePort();
  if (!fallback) {
    await requirePortFree(wanted, what, variable, fromVariable);
    return wanted;
  }
  try {
    await requirePortFree(wanted, what, variable, fromVariable);
    return wanted;
  } catch {
    return listensOnZero ? 0 : freePort();
  }
}

async function pendingMigrations(url: string, projectRoot: string): Promise<boolean> {
  const dir = path.join(projectRoot, 'supabase', 'migrations');
  if (!existsSync(dir)) return false;
  const versions = readdirSync(dir)
    .map((f) => /^(\d+)_.*\.sql$/.exec(f)?.[1])
    .filter((v): v is string => v !== undefined);
  if (versions.length === 0) return false;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query<{ present: boolean }>(
      "select to_regclass('supabase_migrations.schema_migrations') is not null as present",
    );
    if (!table.rows[0]?.present) return true;
    const { rows } = await client.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations',
    );
    const applied = new Set(rows.map((r) => r.version));
    return versions.some((v) => !applied.has(v));
  } finally {
    await client.end();
  }
}

export async function startBackend(options: BackendOptions): Promise<Backend> {
  const started = performance.now();
  const env: Environment = { ...process.env, ...(options.env ?? {}) };
  const settings = loadSettings(options.projectRoot, env);
  const dataDir = path.resolve(options.dataDir);
  const releaseLock = acquireLock(dataDir);
  const logFile = path.join(dataDir, 'backend.log');
  const log = (line: string) => {
    try {
      appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // The data directory is gone (a test removed it after stop() while a child still talked):
      // a log line is never worth an exception in whatever emitted it.
    }
  };
  const fallback = options.fallbackToFreePorts ?? false;

  const stops: Array<() => Promise<void> | void> = [releaseLock];
  const stop = async () => {
    for (const fn of stops.splice(0).reverse()) {
      try {
        await fn();
      } catch (error) {
        log(`stop: ${String(error)}`);
      }
    }
  };

  try {
    // A taken port is reported with the environment variable that moves it (local-env.ts), which
    // `npm run dev` and `npm run backend` both read; config.toml stays as the Supabase CLI expects it.
    // The mailbox and its SMTP door report the port they got, so "any free port" is 0 for them and
    // nothing can take it in between; the gateway's and the database's are picked before they start.
    const port = (option: PortOption, what: string, listensOnZero = false) =>
      choosePort(
        options[option] ?? settings[option],
        fallback,
        what,
        PORT_VARIABLES[option],
        options.portsFromEnvironment?.includes(option) ?? false,
        listensOnZero,
      );
    const apiPort = await port('apiPort', 'API gateway');
    const mailPort = await port('mailPort', 'mailbox', true);
    const smtpPort = await port('smtpPort', 'mailbox SMTP', true);
    const dbPort = options.databaseUrl ? 0 : await port('dbPort', 'database');

    const db: Database = await startPostgres({
      dataDir,
      port: dbPort,
      databaseUrl: options.databaseUrl,
      log,
    });
    stops.push(() => db.stop());

    await bootstrap(db.url);
    // Migrations and the seed run as postgres, no superuser, as `supabase db push` runs them on a
    // hosted project (emulator/README.md, "Roles"); DATABASE_URL's own user on another server.
    const migrationUrl = options.databaseUrl ? db.url : db.urlAs('postgres');
    const firstRun = !(await hasMigrationHistory(migrationUrl));
    if (await pendingMigrations(migrationUrl, options.projectRoot))
      await applyMigrations(migrationUrl, options.projectRoot);
    const seeded = firstRun ? await seed(migrationUrl, options.projectRoot) : false;

    const keys = await loadSigningKeys(dataDir, settings.auth.signingKeysPath);
    const postgrest: Postgrest = await startPostgrest({
      dbUrl: db.urlAs('authenticator'),
      schemas: settings.schemas,
      extraSearchPath: settings.extraSearchPath,
      maxRows: settings.maxRows,
      jwks: keys.postgrestJwks,
      log,
    });
    stops.push(() => postgrest.stop());

    const mailbox: Mailbox = await startMailbox({ port: mailPort });
    stops.push(() => mailbox.close());
    const smtp = await startSmtp({ port: smtpPort, deliver: (mail) => mailbox.deliver(mail) });
    stops.push(() => smtp.close());

    // Every pool outlives a restart of the database: broken clients are dropped, new ones made.
    const pool = survivingRestarts(
      new pg.Pool({ connectionString: db.urlAs('supabase_auth_admin'), max: 10 }),
      'auth',
      log,
    );
    stops.push(() => pool.end());

    // storage-api logs in as supabase_storage_admin and runs each request as the caller's role.
    const storagePool = survivingRestarts(
      new pg.Pool({ connectionString: db.urlAs('supabase_storage_admin'), max: 10 }),
      'storage',
      log,
    );
    stops.push(() => storagePool.end());
    const storage = await createStorage({ pool: storagePool, keys, dataDir, log });

    // realtime logs in as supabase_admin (as the CLI runs it): it streams the publication over a
    // replication connection and checks each change as the subscriber's role.
    const realtimePool = survivingRestarts(
      new pg.Pool({
        connectionString: db.urlAs('supabase_admin'),
        max: 4,
        onConnect: prepareRealtimeConnection,
      }),
      'realtime',
      log,
    );
    stops.push(() => realtimePool.end());
    const realtime = await createRealtime({
      pool: realtimePool,
      replicationUrl: db.urlAs('supabase_admin'),
      // One slot name per data directory: a backend that was killed leaves its slot behind, and the
      // next start on that directory drops it.
      slot: `supabase_realtime_replication_slot_${createHash('sha256').update(dataDir).digest('hex').slice(0, 8)}`,
      keys,
      log,
    });
    stops.push(() => realtime.stop());

    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const auth = createAuthService({
      settings: settings.auth,
      pool,
      keys,
      apiExternalUrl: apiUrl,
      deliverMail: (mail) => {
        mailbox.deliver(mail);
      },
    });
    // Edge Functions on Deno, with the environment `supabase functions serve` gives them; the
    // mailbox and [auth] site_url stand in for the SMTP_URL and SITE_URL secrets a hosted project sets,
    // and MAIL_FROM is the address auth sends from too.
    const functions = await createFunctions({
      projectRoot: options.projectRoot,
      dataDir,
      keys,
      jwtSecret: JWT_SECRET,
      platformEnv: {
        SUPABASE_URL: apiUrl,
        SUPABASE_ANON_KEY: ANON_KEY,
        SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
        // The CLI gives functions the superuser's URL (serve.go: postgres:postgres@db).
        SUPABASE_DB_URL: options.databaseUrl ? db.url : db.urlAs('postgres'),
      },
      localDefaults: {
        SMTP_URL: env.FUNCTIONS_SMTP_URL || smtp.url,
        SITE_URL: settings.auth.siteUrl,
        // The shortest gap between two notification emails to one person (send-notifications).
        ...(env.NOTIFICATION_EMAIL_INTERVAL_SECONDS
          ? { NOTIFICATION_EMAIL_INTERVAL_SECONDS: env.NOTIFICATION_EMAIL_INTERVAL_SECONDS }
          : {}),
      },
      backendEnv: { MAIL_FROM: settings.mailFrom },
      wallClockLimitMs: wallClockLimitMs(env),
      log,
    });
    stops.push(() => functions.stop());
    const gateway: Server = createGateway({
      keys: {
        anon: ANON_KEY,
        serviceRole: SERVICE_ROLE_KEY,
        publishable: PUBLISHABLE_KEY,
        secret: SECRET_KEY,
      },
      functions: (req, res, path) => functions.handle(req, res, path),
      auth: createAuthHandler(auth, log),
      storage: (req, res, path, query) => storage.handle(req, res, path, query),
      realtime,
      postgrestPort: postgrest.port,
      log,
    });
    await new Promise<void>((resolve, reject) => {
      gateway.once('error', reject);
      gateway.listen(apiPort, '127.0.0.1', () => resolve());
    });
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          gateway.close(() => resolve());
          gateway.closeAllConnections();
        }),
    );
    // Before the gateway closes: it waits for every socket, and the realtime websockets are its too.
    stops.push(() => realtime.stop());
    // The scheduled functions (supabase/schedule.toml), called through the gateway as pg_cron and
    // pg_net call them on a hosted project. Stopped first, before what its calls go through.
    const scheduler = startScheduler({
      jobs: readSchedule(options.projectRoot),
      intervalMs: (job) => scheduleIntervalMs(env, job),
      call: callFunction(apiUrl, SERVICE_ROLE_KEY),
      log,
    });
    stops.push(() => scheduler.stop());

    return {
      apiUrl,
      dbUrl: migrationUrl,
      mailUrl: mailbox.url,
      smtpUrl: smtp.url,
      postgrestUrl: `http://127.0.0.1:${postgrest.port}`,
      anonKey: ANON_KEY,
      serviceRoleKey: SERVICE_ROLE_KEY,
      jwtSecret: JWT_SECRET,
      settings,
      startedInMs: performance.now() - started,
      seeded,
      childPids: () => ({ postgres: db.pid(), postgrest: postgrest.pid() }),
      functions,
      scheduler,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Deletes the database of a data directory, or empties the schemas of DATABASE_URL. */
export async function resetDatabase(dataDir: string, databaseUrl?: string): Promise<void> {
  if (!databaseUrl) {
    rmSync(path.join(dataDir, 'postgres'), { recursive: true, force: true });
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      drop schema if exists supabase_migrations cascade;
      drop schema if exists public cascade;
      create schema public;
      truncate auth.users cascade;
      select set_config('storage.allow_delete_query', 'true', false);
      delete from storage.objects;
      delete from storage.buckets;
    `);
  } finally {
    await client.end();
  }
}
