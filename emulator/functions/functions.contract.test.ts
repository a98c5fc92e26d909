// The functions service against `supabase functions serve`: the unmodified
// supabase-js and raw HTTP, on a backend of its own whose project holds small functions made for
// each case — JWT checks on and off, 404, boot errors, crashes, a hang past a short wall-clock limit,
// streaming both ways, the environment a function sees, and an edit while a request is running.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../backend.ts';
import { PUBLISHABLE_KEY } from '../keys.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dataDir = path.resolve(repoRoot, `${process.env.TEST_DATA_DIR ?? '.data/test'}-functions`);
const projectRoot = `${dataDir}-project`;
const fnDir = path.join(projectRoot, 'supabase', 'functions');
const WALL_CLOCK_SECONDS = 2;
const MAIL_FROM = 'Crew Mail <crew@mail.example.test>';

const FILES: Record<string, string> = {
  'config.toml': `
project_id = "functions-test"
[functions.open]
verify_jwt = false
[functions.disabled]
enabled = false
[functions.custom]
verify_jwt = false
entrypoint = "./functions/custom/main.ts"
import_map = "./functions/custom/imports.json"
`,
  // Called by the local scheduler every FUNCTIONS_SCHEDULE_INTERVAL, as pg_cron + pg_net would call it.
  'schedule.toml': `
[[jobs]]
name = "every-tick"
function = "tick"
cron = "* * * * *"
body = '{"job": "every-tick"}'
`,
  'functions/tick/index.ts': `
Deno.serve(async (req) => {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer /, '');
  const claims = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')));
  return Response.json({ method: req.method, role: claims.role, body: await req.json() });
});
`,
  'functions/.env':
    'GREETING="hello from .env"\nSUPABASE_SNEAKY=1\n# a comment\nexport QUOTED=\'a # b\'\nMAIL_FROM=Elsewhere <x@elsewhere.test>\n',
  'functions/echo/index.ts': `
Deno.serve(async (req) => {
  const url = new URL(req.url);
  return Response.json({
    method: req.method,
    path: url.pathname,
    search: url.search,
    authorization: req.headers.get('authorization'),
    body: req.method === 'GET' ? null : await req.text(),
    env: Deno.env.toObject(),
  });
});
`,
  'functions/open/index.ts': `Deno.serve(() => new Response('open to all'));`,
  'functions/disabled/index.ts': `Deno.serve(() => new Response('should not be served'));`,
  'functions/custom/main.ts': `import { greeting } from 'greeting';\nDeno.serve(() => new Response(greeting));`,
  'functions/custom/greeting.ts': `export const greeting = 'mapped import';`,
  'functions/custom/imports.json': `{ "imports": { "greeting": "./greeting.ts" } }`,
  'functions/broken/index.ts': `throw new Error('broken at boot');`,
  'functions/throws/index.ts': `Deno.serve(() => { throw new Error('handler failed'); });`,
  'functions/crash/index.ts': `
Deno.serve((req) => {
  if (new URL(req.url).pathname.endsWith('/pid')) return new Response(String(Deno.pid));
  setTimeout(() => { throw new Error('uncaught, outside the handler'); }, 10);
  return new Promise<Response>(() => {});
});
`,
  'functions/hang/index.ts': `
Deno.serve((req) => {
  if (new URL(req.url).pathname.endsWith('/pid')) return new Response(String(Deno.pid));
  for (;;) { /* busy: the process must be ended, not asked */ }
});
`,
  'functions/stream/index.ts': `
Deno.serve((req) => {
  const url = new URL(req.url);
  // Echo: each chunk of the request goes back as it arrives.
  if (url.pathname.endsWith('/echo')) return new Response(req.body);
  // Ticks: a first chunk, then nothing until the client goes away.
  return new Response(new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('first\\n'));
    },
  }));
});
`,
  'functions/npm/index.ts': `
import isNumber from 'npm:is-number@7.0.0';
Deno.serve(() => Response.json({ five: isNumber(5), word: isNumber('five') }));
`,
};

function writeProject(): void {
  rmSync(projectRoot, { recursive: true, force: true });
  for (const [file, text] of Object.entries(FILES)) {
    const full = path.join(projectRoot, 'supabase', file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

let backend: Backend;
const clientOptions = { auth: { persistSession: false } };
const url = (p: string) => `${backend.apiUrl}/functions/v1/${p}`;

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  writeProject();
  // An empty npm cache: the npm: import below must really come from the registry.
  rmSync(path.join(dataDir, 'functions', 'deno', 'npm'), { recursive: true, force: true });
  process.env.CREWBOARD_HOST_ONLY = 'a variable of the backend process';
  backend = await startBackend({
    projectRoot,
    dataDir,
    apiPort: 0,
    dbPort: 0,
    mailPort: 0,
    smtpPort: 0,
    env: {
      FUNCTIONS_WALL_CLOCK_LIMIT: String(WALL_CLOCK_SECONDS),
      FUNCTIONS_SCHEDULE_INTERVAL: '0.5',
      MAIL_FROM,
    },
  });
}, 120_000);

afterAll(async () => {
  delete process.env.CREWBOARD_HOST_ONLY;
  await backend?.stop();
});

describe('routing and configuration', () => {
  it('serves every enabled function and lists them', () => {
    expect(backend.functions.names()).toEqual(
      ['broken', 'crash', 'custom', 'echo', 'hang', 'npm', 'open', 'stream', 'throws', 'tick'].sort(),
    );
  });

  it('answers 404 "Function not found" for an unknown or disabled function', async () => {
    for (const name of ['nope', 'disabled', '']) {
      const res = await fetch(url(name), { headers: { Authorization: `Bearer ${backend.anonKey}` } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain');
      expect(await res.text()).toBe('Function not found');
    }
  });

  it('passes method, sub-path, query and body through, as /<name>/<rest>', async () => {
    const res = await fetch(url('echo/a/b?x=1&y=two'), {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${backend.anonKey}`, 'Content-Type': 'text/plain' },
      body: 'payload',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { method: string; path: string; search: string; body: string };
    expect(body).toMatchObject({ method: 'PATCH', path: '/echo/a/b', search: '?x=1&y=two', body: 'payload' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('honours entrypoint and import_map from config.toml', async () => {
    const res = await fetch(url('custom'));
    expect(await res.text()).toBe('mapped import');
  });

  it('loads npm: imports through the registry npm is configured with, cached in the data directory', async () => {
    const res = await fetch(url('npm'), { headers: { Authorization: `Bearer ${backend.anonKey}` } });
    expect(await res.json()).toEqual({ five: true, word: false });
    const registries = readdirSync(path.join(dataDir, 'functions', 'deno', 'npm'));
    const { execFileSync } = await import('node:child_process');
    const registry = new URL(execFileSync('npm', ['config', 'get', 'registry']).toString().trim());
    expect(registries).toContain(registry.host);
  });
});

describe('the environment a function sees', () => {
  it('has the platform variables and the .env secrets, and none of the host', async () => {
    const res = await fetch(url('echo'), { headers: { Authorization: `Bearer ${backend.anonKey}` } });
    const { env } = (await res.json()) as { env: Record<string, string> };
    expect(env.SUPABASE_URL).toBe(backend.apiUrl);
    expect(env.SUPABASE_ANON_KEY).toBe(backend.anonKey);
    expect(env.SUPABASE_SERVICE_ROLE_KEY).toBe(backend.serviceRoleKey);
    const db = new URL(env.SUPABASE_DB_URL ?? '');
    expect([db.username, db.host, db.pathname]).toEqual([
      'postgres',
      new URL(backend.dbUrl).host,
      '/postgres',
    ]);
    expect(env.GREETING).toBe('hello from .env');
    expect(env.QUOTED).toBe('a # b');
    expect(env.SUPABASE_SNEAKY).toBeUndefined();
    for (const name of ['CREWBOARD_HOST_ONLY', 'PATH', 'HOME', 'DENO_DIR', 'NPM_CONFIG_REGISTRY', 'NODE_ENV'])
      expect(env[name], name).toBeUndefined();
    expect(process.env.CREWBOARD_HOST_ONLY).toBeDefined();
  });

  it("has the backend's MAIL_FROM, which auth's emails come from too, over supabase/functions/.env", async () => {
    const res = await fetch(url('echo'), { headers: { Authorization: `Bearer ${backend.anonKey}` } });
    const { env } = (await res.json()) as { env: Record<string, string> };
    expect(env.MAIL_FROM).toBe(MAIL_FROM);

    const email = `sender-${Date.now().toString(36)}@example.test`;
    const admin = createClient(backend.apiUrl, backend.serviceRoleKey, clientOptions);
    const created = await admin.auth.admin.createUser({
      email,
      password: 'a-good-password',
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const client = createClient(backend.apiUrl, backend.anonKey, clientOptions);
    const { error } = await client.auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    const from = await until('the recovery email', 5_000, async () => {
      const search = await fetch(
        `${backend.mailUrl}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`,
      );
      const { messages } = (await search.json()) as { messages: Array<{ From: unknown }> };
      return messages[0]?.From;
    });
    expect(from).toEqual({ Name: 'Crew Mail', Address: 'crew@mail.example.test' });
  });
});

describe('JWT verification', () => {
  const call = (headers: Record<string, string>) => fetch(url('echo'), { headers });
  const msg = async (res: Response) => {
    expect(res.status).toBe(401);
    return ((await res.json()) as { msg: string }).msg;
  };

  it('refuses a missing, malformed or badly signed token with the CLI’s answers', async () => {
    expect(await msg(await call({}))).toBe('Error: Missing authorization header');
    expect(await msg(await call({ Authorization: 'Basic abc' }))).toBe(
      "Error: Auth header is not 'Bearer {token}'",
    );
    expect(await msg(await call({ Authorization: 'Bearer not-a-jwt' }))).toBe(
      'TypeError: Invalid Token or Protected Header formatting',
    );
    const wrongSecret = await new jose.SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    expect(await msg(await call({ Authorization: `Bearer ${wrongSecret}` }))).toBe('Invalid JWT');
    const { privateKey } = await jose.generateKeyPair('ES256');
    const foreign = await new jose.SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: 'someone-else' })
      .setExpirationTime('1h')
      .sign(privateKey);
    expect(await msg(await call({ Authorization: `Bearer ${foreign}` }))).toBe('Invalid JWT');
    const expired = await new jose.SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(backend.jwtSecret));
    expect(await msg(await call({ Authorization: `Bearer ${expired}` }))).toBe('Invalid JWT');
  });

  it('takes an opaque key alone as its JWT, and a legacy key alone as the CLI’s gateway sends it on', async () => {
    // The CLI's Kong (internal/start/start.go, BearerToken) turns `apikey: sb_publishable_…` into
    // `Authorization: Bearer <anon key>`, and sends a legacy key on as `Authorization: <key>`, which
    // the edge runtime's main (internal/functions/serve/templates/main.ts) refuses: no `Bearer `.
    const opaque = await call({ apikey: PUBLISHABLE_KEY });
    expect(opaque.status).toBe(200);
    expect(((await opaque.json()) as { authorization: string }).authorization).toBe(
      `Bearer ${backend.anonKey}`,
    );
    expect(await msg(await call({ apikey: backend.anonKey }))).toBe(
      "Error: Auth header is not 'Bearer {token}'",
    );
  });

  it('lets anyone call a function with verify_jwt = false', async () => {
    const res = await fetch(url('open'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('open to all');
  });

  it('works from supabase-js with the anon key and with a user session (ES256)', async () => {
    const client = createClient(backend.apiUrl, backend.anonKey, clientOptions);
    const anon = await client.functions.invoke('echo', { body: { hello: 'world' } });
    expect(anon.error).toBeNull();
    expect(JSON.parse((anon.data as { body: string }).body)).toEqual({ hello: 'world' });

    const email = `fn-${Date.now()}@example.test`;
    const admin = createClient(backend.apiUrl, backend.serviceRoleKey, clientOptions);
    await admin.auth.admin.createUser({ email, password: 'correct-horse-9', email_confirm: true });
    const signedIn = await client.auth.signInWithPassword({ email, password: 'correct-horse-9' });
    const token = signedIn.data.session?.access_token ?? '';
    expect(jose.decodeProtectedHeader(token).alg).toBe('ES256');
    const user = await client.functions.invoke('echo', { method: 'GET' });
    expect(user.error).toBeNull();
    expect((user.data as { authorization: string }).authorization).toBe(`Bearer ${token}`);

    const refused = await createClient(backend.apiUrl, 'not-a-key', clientOptions).functions.invoke('echo');
    expect(refused.error?.name).toBe('FunctionsHttpError');
    expect((refused.error as { context: Response }).context.status).toBe(401);
  });
});

describe('failures', () => {
  const auth = () => ({ Authorization: `Bearer ${backend.anonKey}` });

  it('answers 503 BOOT_ERROR when the module throws while loading', async () => {
    const res = await fetch(url('broken'), { headers: auth() });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      code: 'BOOT_ERROR',
      message: 'Worker failed to boot (please check logs)',
    });
  });

  it('answers 500 from Deno when the handler throws, and the process lives on', async () => {
    const first = await fetch(url('throws'), { headers: auth() });
    expect(first.status).toBe(500);
    expect(await first.text()).toBe('Internal Server Error');
    const pid = await backend.functions.pid('throws');
    expect((await fetch(url('throws'), { headers: auth() })).status).toBe(500);
    expect(await backend.functions.pid('throws')).toBe(pid);
  });

  it('answers 500 WORKER_ERROR when the process dies mid-request, and starts it again', async () => {
    const before = await (await fetch(url('crash/pid'), { headers: auth() })).text();
    const res = await fetch(url('crash'), { headers: auth() });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    });
    // Started again by the service itself, before any request asks for it.
    const restarted = await until('the crash function to be started again', 15_000, async () => {
      const pid = await backend.functions.pid('crash');
      return pid !== undefined && String(pid) !== before ? pid : undefined;
    });
    const after = await (await fetch(url('crash/pid'), { headers: auth() })).text();
    expect(after).toBe(String(restarted));
    expect(readLog()).toMatch(/functions\/crash: .*uncaught, outside the handler/);
    expect(readLog()).toMatch(/functions\/crash \(pid \d+\) exited unexpectedly/);
  });

  it('answers 546 WORKER_LIMIT past the wall-clock limit and ends the stuck process', async () => {
    const pid = Number(await (await fetch(url('hang/pid'), { headers: auth() })).text());
    const started = Date.now();
    const res = await fetch(url('hang'), { headers: auth() });
    expect(res.status).toBe(546);
    expect(await res.json()).toEqual({
      code: 'WORKER_LIMIT',
      message: 'Worker failed to respond due to a resource limit (please check logs)',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WALL_CLOCK_SECONDS * 1000 - 50);
    await until('the stuck process to end', 5_000, async () => (alive(pid) ? undefined : true));
    const next = await fetch(url('hang/pid'), { headers: auth() });
    expect(Number(await next.text())).not.toBe(pid);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readLog(): string {
  return readFileSync(path.join(dataDir, 'backend.log'), 'utf8');
}

describe('the schedule', () => {
  it('calls each job of supabase/schedule.toml every interval: a POST with the service role key and its body', async () => {
    await until('two runs of the job', 10_000, async () =>
      (backend.scheduler.runs()['every-tick'] ?? 0) >= 2 ? true : undefined,
    );
    const line = await until('a run in the log', 10_000, async () =>
      readLog()
        .split('\n')
        .find((l) => l.includes('schedule: every-tick → tick: 200')),
    );
    expect(line).toContain('{"method":"POST","role":"service_role","body":{"job":"every-tick"}}');
  });
});

describe('streaming', () => {
  it('sends a chunk as soon as the function writes it', async () => {
    const res = await fetch(url('stream/ticks'), { headers: { Authorization: `Bearer ${backend.anonKey}` } });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('first\n');
    // The function never ends its body: had the gateway buffered, the read above would hang.
    await reader.cancel();
  });

  it('streams the request body in while the response streams out', async () => {
    const target = new URL(url('stream/echo'));
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'POST',
      headers: { Authorization: `Bearer ${backend.anonKey}`, 'Transfer-Encoding': 'chunked' },
    });
    const res = await new Promise<http.IncomingMessage>((resolve) => {
      req.on('response', resolve);
      req.write('ping-1;');
    });
    expect(res.statusCode).toBe(200);
    const chunks: string[] = [];
    const next = () =>
      new Promise<string>((resolve) => res.once('data', (c: Buffer) => resolve(c.toString())));
    chunks.push(await next());
    req.write('ping-2;');
    chunks.push(await next());
    req.end();
    expect(chunks).toEqual(['ping-1;', 'ping-2;']);
  });
});

describe('editing a function', () => {
  it('serves the new code on the next request, without a restart, while a running request finishes', async () => {
    const file = path.join(fnDir, 'edited', 'index.ts');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      `Deno.serve(async (req) => {
  if (new URL(req.url).pathname.endsWith('/slow')) {
    console.log('slow request started');
    await new Promise((r) => setTimeout(r, 700));
  }
  return new Response('version 1');
});`,
    );
    const auth = { Authorization: `Bearer ${backend.anonKey}` };
    await until('the new function to be served', 10_000, async () =>
      (await fetch(url('edited'), { headers: auth })).ok ? true : undefined,
    );
    const slow = fetch(url('edited/slow'), { headers: auth }).then((r) => r.text());
    await until('the slow request to start', 10_000, async () =>
      readLog().includes('functions/edited: slow request started') ? true : undefined,
    );
    writeFileSync(file, `Deno.serve(() => new Response('version 2'));`);
    const second = await until('version 2', 10_000, async () => {
      const text = await (await fetch(url('edited'), { headers: auth })).text();
      return text === 'version 2' ? text : undefined;
    });
    expect(second).toBe('version 2');
    expect(await slow).toBe('version 1');
    expect(readLog()).toMatch(/functions\/edited: files changed, reloading/);
  });
});
