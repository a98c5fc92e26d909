// The ports and data directory of the local backend as `npm run dev` and `npm run backend` take them
// from the environment: two stacks side by side, a taken port's message, and dev.ts itself.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from './backend.ts';
import { ANON_KEY } from './keys.ts';
import { freePort } from './lib/net.ts';
import { SetupProblem } from './lib/problem.ts';
import { backendOptionsFromEnv } from './local-env.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
// Under the project's .data (not /tmp, not /root): as root, PostgreSQL runs as `postgres`, which must
// enter the directory; .data is git-ignored.
const scratch = path.join(projectRoot, '.data', `ports-${process.pid}-${Date.now()}`);
mkdirSync(scratch, { recursive: true, mode: 0o755 });
chmodSync(scratch, 0o755);

const started: Backend[] = [];
const blockers: net.Server[] = [];
let dev: ChildProcessWithoutNullStreams | null = null;

afterAll(async () => {
  for (const backend of started.splice(0)) await backend.stop();
  for (const server of blockers.splice(0)) server.close();
  if (dev?.pid) {
    // Whatever of dev.ts's process group is left (Remix, PostgreSQL) if it did not stop cleanly.
    try {
      process.kill(-dev.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

async function freePorts(): Promise<Record<'API_PORT' | 'DB_PORT' | 'MAIL_PORT' | 'SMTP_PORT', string>> {
  return {
    API_PORT: String(await freePort()),
    DB_PORT: String(await freePort()),
    MAIL_PORT: String(await freePort()),
    SMTP_PORT: String(await freePort()),
  };
}

async function occupiedPort(): Promise<number> {
  const server = net.createServer();
  blockers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the blocker has no address');
  return address.port;
}

/** The first line the SMTP listener sends on a new connection. */
function smtpGreeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('data', (chunk) => {
      socket.end();
      resolve(chunk.toString().split('\r\n')[0] ?? '');
    });
  });
}

async function health(apiUrl: string, anonKey: string): Promise<number> {
  const response = await fetch(`${apiUrl}/auth/v1/health`, { headers: { apikey: anonKey } });
  await response.body?.cancel();
  return response.status;
}

async function mailTo(mailUrl: string, address: string): Promise<number> {
  const response = await fetch(`${mailUrl}/api/v1/search?query=${encodeURIComponent(`to:${address}`)}`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { messages_count: number };
  return body.messages_count;
}

describe('two local backends side by side', () => {
  it('run from two data directories on the ports their environments name, and both answer', async () => {
    const envs = [
      { ...(await freePorts()), CREWBOARD_DATA_DIR: path.relative(projectRoot, path.join(scratch, 'a')) },
      { ...(await freePorts()), CREWBOARD_DATA_DIR: path.join(scratch, 'b') },
    ];
    for (const env of envs) started.push(await startBackend(backendOptionsFromEnv(projectRoot, env)));
    const [a, b] = started;
    if (!a || !b) throw new Error('two backends should have started');

    for (const [index, backend] of [a, b].entries()) {
      const env = envs[index];
      if (!env) throw new Error('missing environment');
      expect(backend.apiUrl).toBe(`http://127.0.0.1:${env.API_PORT}`);
      expect(backend.dbUrl).toContain(`@127.0.0.1:${env.DB_PORT}/`);
      expect(backend.mailUrl).toBe(`http://127.0.0.1:${env.MAIL_PORT}`);
      expect(backend.smtpUrl).toBe(`smtp://127.0.0.1:${env.SMTP_PORT}`);
      expect(await health(backend.apiUrl, backend.anonKey)).toBe(200);
      const mailbox = await fetch(backend.mailUrl);
      expect(mailbox.status).toBe(200);
      await mailbox.body?.cancel();
      expect(await smtpGreeting(Number(env.SMTP_PORT))).toMatch(/^220 /);
    }
    expect(existsSync(path.join(scratch, 'a', 'postgres', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(scratch, 'b', 'postgres', 'PG_VERSION'))).toBe(true);

    // Separate stacks: an email asked of one lands in its own mailbox only.
    const address = `side-by-side-${Date.now()}@example.test`;
    const otp = await fetch(`${a.apiUrl}/auth/v1/otp`, {
      method: 'POST',
      headers: { apikey: a.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: address }),
    });
    expect(otp.status).toBe(200);
    await otp.body?.cancel();
    expect(await mailTo(a.mailUrl, address)).toBe(1);
    expect(await mailTo(b.mailUrl, address)).toBe(0);

    for (const backend of started.splice(0)) await backend.stop();
    expect(await fetch(a.apiUrl).catch(() => 'refused')).toBe('refused');
    expect(await fetch(b.apiUrl).catch(() => 'refused')).toBe('refused');
  }, 180_000);
});

describe('a taken port', () => {
  /** A project whose config.toml puts the given ports where the Supabase CLI reads them. */
  function projectWith(name: string, config: string): string {
    const root = path.join(scratch, name);
    mkdirSync(path.join(root, 'supabase'), { recursive: true });
    writeFileSync(path.join(root, 'supabase', 'config.toml'), config);
    return root;
  }

  it('names the variable that moves it when it was the default', async () => {
    const [api, taken] = [await freePort(), await occupiedPort()];
    const root = projectWith('default-mail', `[api]\nport = ${api}\n[local_smtp]\nport = ${taken}\n`);
    const attempt = startBackend(backendOptionsFromEnv(root, {}));
    await expect(attempt).rejects.toThrow(SetupProblem);
    await expect(startBackend(backendOptionsFromEnv(root, {}))).rejects.toThrow(
      `Port ${taken} (mailbox) is already in use.\n  Fix: set MAIL_PORT to a free port, or stop what listens on it`,
    );
  });

  it('names SMTP_PORT for the SMTP listener', async () => {
    const [api, mail, taken] = [await freePort(), await freePort(), await occupiedPort()];
    const root = projectWith(
      'default-smtp',
      `[api]\nport = ${api}\n[local_smtp]\nport = ${mail}\nsmtp_port = ${taken}\n`,
    );
    await expect(startBackend(backendOptionsFromEnv(root, {}))).rejects.toThrow(
      `Port ${taken} (mailbox SMTP) is already in use.\n  Fix: set SMTP_PORT to a free port`,
    );
  });

  it('says the value from the variable is taken when the variable was set', async () => {
    const taken = await occupiedPort();
    const root = projectWith('from-env', '');
    await expect(startBackend(backendOptionsFromEnv(root, { API_PORT: String(taken) }))).rejects.toThrow(
      `Port ${taken} (API gateway), from API_PORT, is already in use.\n  Fix: set API_PORT to another free port`,
    );
  });
});

describe('npm run dev', () => {
  /**
   * The project's scripts, backend and database beside a one-page app: `remix dev` writes its build
   * into the copy (this working tree's build/ belongs to whoever runs the app or the e2e tests here),
   * and the app's own code is not what this test is about.
   */
  function projectCopy(): string {
    const root = path.join(scratch, 'project');
    for (const entry of ['scripts', 'emulator', 'supabase']) {
      cpSync(path.join(projectRoot, entry), path.join(root, entry), { recursive: true });
    }
    for (const file of ['package.json', 'remix.config.js']) {
      copyFileSync(path.join(projectRoot, file), path.join(root, file));
    }
    mkdirSync(path.join(root, 'app'));
    writeFileSync(
      path.join(root, 'app', 'root.tsx'),
      [
        "import { json } from '@remix-run/node';",
        "import { useLoaderData } from '@remix-run/react';",
        'export async function loader() {',
        '  return json({ api: process.env.SUPABASE_URL ?? null });',
        '}',
        'export default function App() {',
        '  const { api } = useLoaderData<typeof loader>();',
        '  return <html><body><p>backend: {api}</p></body></html>;',
        '}',
        '',
      ].join('\n'),
    );
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(root, 'node_modules'));
    return root;
  }

  it('starts the backend on the ports and data directory the environment names, prints them, and stops it', async () => {
    const root = projectCopy();
    const ports = await freePorts();
    const appPort = String(await freePort());
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...ports,
      PORT: appPort,
      CREWBOARD_DATA_DIR: '.data/dev-test',
    };
    for (const name of [
      'SUPABASE_URL',
      'DATABASE_URL',
      'SMTP_URL',
      'SITE_URL',
      'AUTH_SITE_URL',
      'NODE_ENV',
    ]) {
      delete env[name];
    }
    // One node process runs dev.ts (no tsx wrapper), in its own process group for the clean-up above.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'dev.ts')], {
      cwd: root,
      env,
      detached: true,
    });
    dev = child;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    const deadline = Date.now() + 150_000;
    // The port lines come as soon as the backend is ready, before the app's summary (Demo: …).
    while (!/^\s*App:.*\(PORT\)/m.test(output) && !/^\s*Demo:/m.test(output)) {
      if (child.exitCode !== null) throw new Error(`npm run dev exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`npm run dev printed no ports in time:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(output).toMatch(new RegExp(`API: +http://127\\.0\\.0\\.1:${ports.API_PORT} +\\(API_PORT\\)`));
    expect(output).toMatch(
      new RegExp(`Database: +postgresql://\\S+@127\\.0\\.0\\.1:${ports.DB_PORT}/\\S+ +\\(DB_PORT\\)`),
    );
    expect(output).toMatch(
      new RegExp(`Mailbox: +http://127\\.0\\.0\\.1:${ports.MAIL_PORT} +\\(MAIL_PORT\\)`),
    );
    expect(output).toMatch(new RegExp(`SMTP: +smtp://127\\.0\\.0\\.1:${ports.SMTP_PORT} +\\(SMTP_PORT\\)`));
    expect(output).toMatch(new RegExp(`App: +http://localhost:${appPort} +\\(PORT\\)`));
    expect(output).toContain(`logs in ${path.join('.data', 'dev-test', 'backend.log')}`);

    const dataDir = path.join(root, '.data', 'dev-test');
    expect(readFileSync(path.join(dataDir, 'backend.lock'), 'utf8').trim()).toBe(String(child.pid));
    expect(await health(`http://127.0.0.1:${ports.API_PORT}`, ANON_KEY)).toBe(200);
    const mailbox = await fetch(`http://127.0.0.1:${ports.MAIL_PORT}`);
    expect(mailbox.status).toBe(200);
    await mailbox.body?.cancel();

    // The app comes up on PORT, talking to that backend.
    const appUrl = `http://localhost:${appPort}/`;
    let page = '';
    while (!page.includes('backend:')) {
      if (child.exitCode !== null) throw new Error(`npm run dev exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the app did not answer on PORT in time:\n${output}`);
      page = await fetch(appUrl).then(
        (response) => response.text(),
        () => '',
      );
      if (!page) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(page).toContain(`backend: <!-- -->http://127.0.0.1:${ports.API_PORT}`);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'backend.lock'))).toBe(false);
    expect(await fetch(`http://127.0.0.1:${ports.API_PORT}`).catch(() => 'refused')).toBe('refused');
    expect(await fetch(appUrl).catch(() => 'refused')).toBe('refused');
  }, 240_000);
});
