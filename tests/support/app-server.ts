// The production build of the app served by remix-serve, as `npm start` serves it, against a given
// backend: for tests that must see what a browser or a proxy would (status codes, headers, the
// request guard), and for tests that run two app processes side by side.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../emulator/lib/net.ts';
import { confirmedUser, type BackendAddress } from './backend.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const buildPath = path.join(projectRoot, 'build', 'index.js');

/** The secret every test app signs its cookies with. */
export const TEST_SESSION_SECRET = 'crewboard-test-session-secret-of-32-characters';

/**
 * `npm start`: remix-serve on the production build, with exactly the environment given (nothing
 * of this process's own leaks in unless passed).
 */
export function remixServe(
  env: NodeJS.ProcessEnv,
  stdio: StdioOptions = ['ignore', 'pipe', 'pipe'],
): ChildProcess {
  if (!existsSync(buildPath))
    throw new Error('Run `npm run build` first: these tests drive the production build.');
  return spawn(
    process.execPath,
    [path.join(projectRoot, 'node_modules', '@remix-run', 'serve', 'dist', 'cli.js'), buildPath],
    { cwd: projectRoot, env, stdio },
  );
}

export interface AppServer {
  url: string;
  /** What the process printed, for failure messages and log assertions. */
  output(): string;
  stop(): Promise<void>;
}

/** Sign-in limits no test reaches, for files that sign in far more than a person would. */
export const NO_SIGN_IN_LIMITS = {
  RATE_LIMIT_SIGN_IN_PER_VISITOR: '100000',
  RATE_LIMIT_SIGN_IN_PER_ACCOUNT: '100000',
};

export async function startAppServer(
  backend: BackendAddress,
  env: Record<string, string> = {},
): Promise<AppServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  let output = '';
  const child = remixServe({
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    PORT: String(port),
    SUPABASE_URL: backend.apiUrl,
    SUPABASE_ANON_KEY: backend.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
    SESSION_SECRET: TEST_SESSION_SECRET,
    SITE_URL: url,
    ...env,
  });
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

/** The cookies a response sets, as the Cookie header a browser would send back. */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
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
  /** The id of the project's "To do" status: the column a new-task form names. */
  todo: string;
}

/** A status of the only project of `workspace`, by its name, read with the service role. */
async function statusIdOf(backend: BackendAddress, workspace: string, name: string): Promise<string> {
  const headers = { apikey: backend.serviceRoleKey, Authorization: `Bearer ${backend.serviceRoleKey}` };
  const rest = `${backend.apiUrl}/rest/v1`;
  const statuses = await fetch(
    `${rest}/project_statuses?select=id,projects!inner(workspaces!inner(slug))` +
      `&projects.workspaces.slug=eq.${encodeURIComponent(workspace)}&name=eq.${encodeURIComponent(name)}`,
    { headers },
  );
  const rows = (await statuses.json()) as Array<{ id: string }>;
  if (!statuses.ok || rows.length !== 1)
    throw new Error(`status ${name} of ${workspace}: ${statuses.status}`);
  return rows[0]?.id ?? '';
}

/** A multipart post of one file, as the browser sends a file form, with the session's cookie. */
export function postFile(
  app: AppServer,
  path: string,
  field: string,
  file: File,
  cookie: string,
): Promise<Response> {
  const form = new FormData();
  form.append(field, file);
  return fetch(`${app.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Origin: app.url, 'Sec-Fetch-Site': 'same-origin', Cookie: cookie },
    body: form,
  });
}

/** The session's cookies of `email` signed in through the app's /login form. */
export async function signInThroughApp(app: AppServer, email: string, password: string): Promise<string> {
  const signedIn = await postForm(app, '/login', { email, password, next: '/w', website: '' });
  if (signedIn.status !== 302) throw new Error(`signing in ${email}: ${signedIn.status}`);
  return cookiesOf(signedIn);
}

/**
 * A confirmed user signed in through the app, with a workspace of theirs and a project in it, all
 * made through the app's own forms.
 */
export async function createAppScene(
  app: AppServer,
  backend: BackendAddress,
  tag: string,
): Promise<AppScene> {
  const { email, password } = await confirmedUser(tag, `${tag}-password-1`, backend);
  const cookie = await signInThroughApp(app, email, password);
  const workspace = `${tag}-${Date.now().toString(36)}`;
  const madeWorkspace = await postForm(app, '/w?index', { name: tag, slug: workspace }, cookie);
  if (madeWorkspace.status !== 302) throw new Error(`creating workspace: ${madeWorkspace.status}`);
  const madeProject = await postForm(app, `/w/${workspace}?index`, { name: 'Board' }, cookie);
  if (madeProject.status !== 302) throw new Error(`creating project: ${madeProject.status}`);
  const projectPath = new URL(madeProject.headers.get('location') ?? '', app.url).pathname;
  const todo = await statusIdOf(backend, workspace, 'To do');
  return { email, password, cookie, workspace, projectPath, todo };
}
