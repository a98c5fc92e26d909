// The functions service: `supabase functions serve` without Docker. The gateway hands it
// `/functions/v1/<name>/<rest>` as `/<name>/<rest>`; it checks the caller's JWT when the function
// asks for it, and forwards the request, streaming both ways, to that function's own Deno process.
// Behaviour read from the CLI's `internal/functions/serve/serve.go` (the environment, the functions
// config) and `templates/main.ts` (routing, JWT checks, error answers, the wall-clock limit).
import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as jose from 'jose';
import type { SigningKeys } from '../keys.ts';
import { SetupProblem } from '../lib/problem.ts';
import { sendNotFound, sendUnauthorized } from './errors.ts';
import { denoNetwork, readNpmNetwork } from './npm-config.ts';
import { functionsDir, readFunctions, readSecrets, type FunctionConfig } from './project.ts';
import { FunctionHost } from './worker.ts';

/** The CLI's main.ts: `WALLCLOCK_LIMIT_SEC`, 400 s unless the inspector is on. */
export const DEFAULT_WALL_CLOCK_LIMIT_MS = 400_000;

export interface FunctionsOptions {
  projectRoot: string;
  dataDir: string;
  keys: SigningKeys;
  jwtSecret: string;
  /** What every function sees: SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, SUPABASE_DB_URL. */
  platformEnv: Record<string, string>;
  /** Secrets the local backend provides unless supabase/functions/.env sets them (the mailbox's SMTP_URL…). */
  localDefaults: Record<string, string>;
  /**
   * Settings the local backend's own services use too (MAIL_FROM, which auth sends from): they win over
   * supabase/functions/.env, so every email has the one sender the project's .env names.
   */
  backendEnv?: Record<string, string>;
  wallClockLimitMs?: number;
  log(line: string): void;
}

export interface Functions {
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** The functions served now (enabled ones). */
  names(): string[];
  /** The pid of a function's running process (tests kill it). */
  pid(name: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

function denoBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const pkg =
    process.platform === 'linux'
      ? `@deno/linux-${arch}-glibc`
      : process.platform === 'darwin'
        ? `@deno/darwin-${arch}`
        : `@deno/win32-${arch}`;
  try {
    return path.join(
      path.dirname(require.resolve(`${pkg}/package.json`)),
      process.platform === 'win32' ? 'deno.exe' : 'deno',
    );
  } catch {
    throw new SetupProblem(
      `The Deno binary for this platform (${pkg}) is not installed.`,
      'run `npm install` (the npm package deno brings it as an optional dependency).',
    );
  }
}

/**
 * The CLI's verifyHybridJWT: HS256 with the project's JWT secret, ES256/RS256 with the auth
 * server's JWKS; anything else, or a failed check, is `Invalid JWT`. A missing or malformed header
 * is reported with the error's own text, as main.ts answers `{msg: e.toString()}`.
 */
export async function jwtProblem(
  authorization: string | undefined,
  secret: Uint8Array,
  jwks: ReturnType<typeof jose.createLocalJWKSet>,
): Promise<string | null> {
  if (!authorization) return 'Error: Missing authorization header';
  const [scheme, token = ''] = authorization.split(' ');
  if (scheme !== 'Bearer') return "Error: Auth header is not 'Bearer {token}'";
  let alg: string | undefined;
  try {
    alg = jose.decodeProtectedHeader(token).alg;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  try {
    if (alg === 'HS256') await jose.jwtVerify(token, secret);
    else if (alg === 'ES256' || alg === 'RS256') await jose.jwtVerify(token, jwks);
    else return 'Invalid JWT';
  } catch {
    return 'Invalid JWT';
  }
  return null;
}

export async function createFunctions(options: FunctionsOptions): Promise<Functions> {
  const { projectRoot, log } = options;
  const deno = denoBinary();
  const runtimeDir = path.join(options.dataDir, 'functions');
  const denoDir = path.join(runtimeDir, 'deno');
  const tmpDir = path.join(runtimeDir, 'tmp');
  mkdirSync(denoDir, { recursive: true });
  mkdirSync(tmpDir, { recursive: true });
  const secret = new TextEncoder().encode(options.jwtSecret);
  const jwks = jose.createLocalJWKSet({ keys: options.keys.publicJwks });
  const network = readNpmNetwork(projectRoot, log).then((npm) => {
    log(
      `functions: npm: imports from ${npm.registry ?? "Deno's default registry"}${npm.cafile ? ` (CA file ${npm.cafile})` : ''}`,
    );
    return denoNetwork(npm);
  });

  const denoSettings = async (): Promise<Record<string, string>> => ({
    DENO_DIR: denoDir,
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PACKAGE_JSON: '1',
    NO_COLOR: '1',
    ...(await network).env,
  });
  const hidden = [
    'DENO_DIR',
    'DENO_NO_UPDATE_CHECK',
    'DENO_NO_PACKAGE_JSON',
    'NO_COLOR',
    'NPM_CONFIG_REGISTRY',
  ];
  let secrets: Record<string, string> = {};
  const readSecretsNow = () => {
    try {
      secrets = readSecrets(projectRoot, log);
      for (const [name, value] of Object.entries(options.backendEnv ?? {})) {
        if (name in secrets && secrets[name] !== value)
          log(
            `functions: supabase/functions/.env: ${name} is set in the project's .env for all mail; using "${value}"`,
          );
      }
    } catch (error) {
      log(`functions: supabase/functions/.env: ${(error as Error).message}`);
    }
  };
  readSecretsNow();

  const hosts = new Map<string, FunctionHost>();
  let configs = new Map<string, FunctionConfig>();
  const runtime = {
    deno,
    bootScript: fileURLToPath(new URL('./runtime/boot.ts', import.meta.url)),
    env: async () => ({
      ...options.localDefaults,
      ...secrets,
      ...options.backendEnv,
      ...options.platformEnv,
      ...(await denoSettings()),
    }),
    flags: async () => (await network).flags,
    functionsDir: functionsDir(projectRoot),
    hidden,
    tmpDir,
    wallClockLimitMs: options.wallClockLimitMs ?? DEFAULT_WALL_CLOCK_LIMIT_MS,
    bootTimeoutMs: 60_000,
    log,
  };

  const readConfigs = () => {
    try {
      configs = new Map(readFunctions(projectRoot).map((c) => [c.name, c]));
    } catch (error) {
      log(`functions: ${(error as Error).message}`);
    }
    for (const c of configs.values())
      if (!c.enabled) log(`functions: skipped serving ${c.name} (enabled = false)`);
  };
  readConfigs();

  /** Restarts the functions whose files changed (all of them when a shared file did). */
  const reload = (changed: Set<string>) => {
    readSecretsNow();
    readConfigs();
    const homes = [...configs.values()].map((c) => path.dirname(c.entrypoint) + path.sep);
    const home = (file: string) => homes.find((dir) => file.startsWith(dir));
    // A file of no function's own folder (`_shared/`, `.env`, config.toml) may be used by any.
    const everything = [...changed].some((file) => home(file) === undefined);
    for (const [name, host] of hosts) {
      const config = configs.get(name);
      const own = [...changed].some((file) => home(file) === path.dirname(host.config.entrypoint) + path.sep);
      if (!config || !config.enabled) {
        hosts.delete(name);
        void host.stop();
      } else if (everything || own) {
        log(`functions/${name}: files changed, reloading`);
        host.reload(config);
      }
    }
  };

  // Editing a function needs no restart (the CLI's watcher.go restarts its runtime on a change).
  const supabaseDir = path.join(projectRoot, 'supabase');
  let pending = new Set<string>();
  let debounce: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(supabaseDir, { recursive: true }, (_event, file) => {
      if (!file) return;
      const full = path.join(supabaseDir, file.toString());
      const inFunctions = !path.relative(functionsDir(projectRoot), full).startsWith('..');
      if (!inFunctions && path.basename(full) !== 'config.toml') return;
      pending.add(full);
      clearTimeout(debounce);
      debounce = setTimeout(() => {
        const changed = pending;
        pending = new Set();
        reload(changed);
      }, 100);
    });
    watcher.on('error', (error) => log(`functions: watching supabase/ failed: ${error.message}`));
  } catch (error) {
    log(`functions: cannot watch supabase/ for changes: ${(error as Error).message}`);
  }

  return {
    async handle(req, res, servicePath) {
      const match = /^\/([^/]+)(\/.*)?$/.exec(servicePath);
      const name = match?.[1] ? decodeURIComponent(match[1]) : '';
      const config = configs.get(name);
      if (!config || !config.enabled) {
        sendNotFound(res);
        return;
      }
      // The gateway has already derived `Authorization` from the `apikey`, as the CLI's Kong does.
      if (req.method !== 'OPTIONS' && config.verifyJwt) {
        const problem = await jwtProblem(req.headers.authorization, secret, jwks);
        if (problem) {
          sendUnauthorized(res, problem);
          return;
        }
      }
      let host = hosts.get(name);
      if (!host) {
        host = new FunctionHost(config, runtime);
        hosts.set(name, host);
      }
      // The function sees `/<name>/<rest>?<query>`, as behind Kong (strip_path) and the edge runtime.
      const raw = req.url ?? '';
      const q = raw.indexOf('?');
      await host.handle(req, res, `${servicePath}${q === -1 ? '' : raw.slice(q)}`);
    },
    names: () => [...configs.values()].filter((c) => c.enabled).map((c) => c.name),
    pid: async (name) => hosts.get(name)?.pid(),
    async stop() {
      clearTimeout(debounce);
      watcher?.close();
      await Promise.all([...hosts.values()].map((h) => h.stop()));
      hosts.clear();
    },
  };
}

/** `FUNCTIONS_WALL_CLOCK_LIMIT` (seconds) shortens the limit for tests. */
export function wallClockLimitMs(env: Record<string, string | undefined>): number {
  const value = env.FUNCTIONS_WALL_CLOCK_LIMIT;
  return value && /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : DEFAULT_WALL_CLOCK_LIMIT_MS;
}
