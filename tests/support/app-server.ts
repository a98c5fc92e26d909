// The production build of the app served by remix-serve, as `npm start` serves it, against a given
// backend: for tests that must see what a browser or a proxy would (status codes, headers, the
// request guard), and for tests that run two app processes side by side.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../emulator/lib/net.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');

export interface AppServer {
  url: string;
  /** What the process printed, for failure messages and log assertions. */
  output(): string;
  stop(): Promise<void>;
}

export interface AppBackend {
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
}

export async function startAppServer(
  backend: AppBackend,
  env: Record<string, string> = {},
): Promise<AppServer> {
  const buildPath = path.join(projectRoot, 'build', 'index.js');
  if (!existsSync(buildPath))
    throw new Error('Run `npm run build` first: these tests drive the production build.');
  const port = await freePort();
  const url = `http://localhost:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(projectRoot, 'node_modules', '@remix-run', 'serve', 'dist', 'cli.js'), buildPath],
    {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PORT: String(port),
        SUPABASE_URL: backend.apiUrl,
        SUPABASE_ANON_KEY: backend.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
        SESSION_SECRET: 'crewboard-test-session-secret-of-32-characters',
        SITE_URL: url,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited before it answered:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The app did not answer /healthz within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      // remix-serve waits for idle keep-alive connections to close; don't wait for them.
      const forced = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(forced);
    },
  };
}

/** Headers of a same-site form post, as a browser sends them. */
export function formHeaders(app: AppServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: app.url,
    'Sec-Fetch-Site': 'same-origin',
    ...extra,
  };
}

/** A form post as a browser sends it, with the session's cookie; redirects are not followed. */
export function postForm(
  app: AppServer,
  path: string,
  fields: Record<string, string | undefined>,
  cookie = '',
): Promise<Response> {
  const body = new URLSearchParams(
    Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return fetch(`${app.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...formHeaders(app), ...(cookie ? { Cookie: cookie } : {}) },
    body,
  });
}

export interface AppScene {
  email: string;
  password: string;
  /** The session's cookies, as a Cookie header. */
  cookie: string;
  workspace: string;
  projectPath: string;
}

/**
 * A confirmed user signed in through the app, with a workspace of theirs and a project in it, all
 * made through the app's own forms.
 */
export async function createAppScene(app: AppServer, backend: AppBackend, tag: string): Promise<AppScene> {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
  const password = `${tag}-password-1`;
  const created = await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${backend.serviceRoleKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  if (created.status !== 200) throw new Error(`creating ${email}: ${created.status} ${await created.text()}`);
  const signedIn = await postForm(app, '/login', { email, password, next: '/w', website: '' });
  if (signedIn.status !== 302) throw new Error(`signing in ${email}: ${signedIn.status}`);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const workspace = `${tag}-${Date.now().toString(36)}`;
  const madeWorkspace = await postForm(app, '/w?index', { name: tag, slug: workspace }, cookie);
  if (madeWorkspace.status !== 302) throw new Error(`creating workspace: ${madeWorkspace.status}`);
  const madeProject = await postForm(app, `/w/${workspace}?index`, { name: 'Board' }, cookie);
  if (madeProject.status !== 302) throw new Error(`creating project: ${madeProject.status}`);
  const projectPath = new URL(madeProject.headers.get('location') ?? '', app.url).pathname;
  return { email, password, cookie, workspace, projectPath };
}
