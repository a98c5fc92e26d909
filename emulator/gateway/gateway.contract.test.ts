// The gateway as supabase-js and browsers meet it: keys as the Supabase CLI's gateway takes them
// (supabase/cli internal/start/templates/kong.yml and internal/start/start.go), CORS, routing, PostgREST behind it with RLS,
// and bad input answered with the JSON errors the real services give. Then the gateway as raw bytes
// on a socket meet it: HTTP/1.1's framing, keep-alive, pipelining, upgrades, bad requests, and a
// PostgREST stand-in that is slow, odd, endless or gone.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import * as jose from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, backend, confirmedUser } from '../../tests/support/backend.ts';
import { readBody } from '../lib/http.ts';
import { PUBLISHABLE_KEY, SECRET_KEY } from '../keys.ts';
import { createGateway } from './gateway.ts';

describe('gateway', () => {
  it('checks no API key, as the CLI’s gateway has no key-auth: each service judges the token', async () => {
    const { apiUrl } = backend();
    // PostgREST serves its description to anon; GoTrue's settings and JWKS are public.
    const none = await fetch(`${apiUrl}/rest/v1/`);
    expect(none.status).toBe(200);
    await none.arrayBuffer();
    const forged = await fetch(`${apiUrl}/auth/v1/settings`, { headers: { apikey: 'forged' } });
    expect(forged.status).toBe(200);
    await forged.arrayBuffer();
    const jwks = await fetch(`${apiUrl}/auth/v1/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    await jwks.arrayBuffer();
    const verify = await fetch(`${apiUrl}/auth/v1/verify?token=x&type=signup`, { redirect: 'manual' });
    expect(verify.status).toBe(303);
    // A service that wants a token refuses a missing one itself: GoTrue here, as behind Kong.
    const user = await fetch(`${apiUrl}/auth/v1/user`, {
      headers: { apikey: 'forged', 'X-Supabase-Api-Version': '2024-01-01' },
    });
    expect(user.status).toBe(401);
    expect((await user.json()).code).toBe('no_authorization');
  });

  it('turns the CLI’s opaque keys into the JWT each stands for', async () => {
    const { apiUrl } = backend();
    const version = { 'X-Supabase-Api-Version': '2024-01-01' };
    const admin = await fetch(`${apiUrl}/auth/v1/admin/users?per_page=1`, {
      headers: { apikey: SECRET_KEY, ...version },
    });
    expect(admin.status).toBe(200);
    await admin.arrayBuffer();
    // What supabase-js sends with an opaque key: the key in `apikey` and as the bearer token.
    const asAnon = await fetch(`${apiUrl}/auth/v1/admin/users?per_page=1`, {
      headers: { apikey: PUBLISHABLE_KEY, Authorization: `Bearer ${PUBLISHABLE_KEY}`, ...version },
    });
    expect(asAnon.status).toBe(403);
    expect((await asAnon.json()).code).toBe('not_admin');
  });

  it('answers CORS preflights and exposes the headers clients read', async () => {
    const preflight = await fetch(`${backend().apiUrl}/rest/v1/anything`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'apikey, authorization, content-type, prefer',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('prefer');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
    const real = await fetch(`${backend().apiUrl}/auth/v1/health`, {
      headers: { apikey: backend().anonKey, Origin: 'http://localhost:3000' },
    });
    expect(real.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
  });

  it('answers unknown paths with JSON 404', async () => {
    const res = await fetch(`${backend().apiUrl}/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'no Route matched with those values' });
  });
});

describe('REST through the gateway', () => {
  beforeAll(async () => {
    // A table of the kind every app has: rows that belong to auth.uid(), guarded by RLS only.
    const client = new pg.Client({ connectionString: backend().dbUrl });
    await client.connect();
    await client.query(`
      create table if not exists public.contract_notes (
        id bigint generated always as identity primary key,
        owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        body text not null
      );
      alter table public.contract_notes enable row level security;
      drop policy if exists "owners read their notes" on public.contract_notes;
      create policy "owners read their notes" on public.contract_notes
        for select to authenticated using (owner_id = (select auth.uid()));
      drop policy if exists "owners write their notes" on public.contract_notes;
      create policy "owners write their notes" on public.contract_notes
        for insert to authenticated with check (owner_id = (select auth.uid()));
    `);
    await client.end();
    // PostgREST reloads its schema cache on the DDL event trigger; wait until it sees the table.
    for (let i = 0; i < 100; i++) {
      const { error } = await anonClient().from('contract_notes').select('id').limit(1);
      if (!error) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('PostgREST never saw public.contract_notes');
  });

  // Other suites share this database and check every table in public (RLS coverage, advisors).
  afterAll(async () => {
    const client = new pg.Client({ connectionString: backend().dbUrl });
    await client.connect();
    await client.query('drop table if exists public.contract_notes');
    await client.end();
  });

  async function signedInClient() {
    const user = await confirmedUser('rls');
    const client = anonClient();
    const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
    if (error) throw error;
    return { client, id: user.id };
  }

  it('returns only the caller’s rows for a policy on auth.uid()', async () => {
    const alice = await signedInClient();
    const bob = await signedInClient();
    expect((await alice.client.from('contract_notes').insert({ body: 'alice 1' })).error).toBeNull();
    expect((await alice.client.from('contract_notes').insert({ body: 'alice 2' })).error).toBeNull();
    expect((await bob.client.from('contract_notes').insert({ body: 'bob 1' })).error).toBeNull();

    const mine = await alice.client.from('contract_notes').select('body, owner_id').order('id');
    expect(mine.error).toBeNull();
    expect(mine.data?.map((r) => r.body)).toEqual(['alice 1', 'alice 2']);
    expect(new Set(mine.data?.map((r) => r.owner_id))).toEqual(new Set([alice.id]));
    const theirs = await bob.client.from('contract_notes').select('body');
    expect(theirs.data?.map((r) => r.body)).toEqual(['bob 1']);
    const anon = await anonClient().from('contract_notes').select('body');
    expect(anon.data).toEqual([]);
  });

  it('refuses a row written for someone else with 42501 and 403', async () => {
    const alice = await signedInClient();
    const bob = await signedInClient();
    const { error, status } = await alice.client
      .from('contract_notes')
      .insert({ body: 'forged', owner_id: bob.id });
    expect(status).toBe(403);
    expect(error?.code).toBe('42501');
  });

  it('counts with Content-Range and returns a single object on request', async () => {
    const alice = await signedInClient();
    await alice.client.from('contract_notes').insert([{ body: 'one' }, { body: 'two' }, { body: 'three' }]);
    const { count, error } = await alice.client
      .from('contract_notes')
      .select('*', { count: 'exact', head: true });
    expect(error).toBeNull();
    expect(count).toBe(3);
    const none = await alice.client.from('contract_notes').select('*').eq('body', 'missing').single();
    expect(none.error?.code).toBe('PGRST116');
    expect(none.status).toBe(406);
  });

  it('treats SQL metacharacters in filters as data', async () => {
    const alice = await signedInClient();
    const hostile = `x'); drop table public.contract_notes; --`;
    expect((await alice.client.from('contract_notes').insert({ body: hostile })).error).toBeNull();
    const found = await alice.client.from('contract_notes').select('body').eq('body', hostile);
    expect(found.data).toEqual([{ body: hostile }]);
  });

  it('answers expired, tampered and forged tokens with PGRST301', async () => {
    const { apiUrl, anonKey } = backend();
    const alice = await signedInClient();
    const token = (await alice.client.auth.getSession()).data.session?.access_token ?? '';
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: '00000000-0000-0000-0000-000000000000' })).toString('base64url')}.${s}`;
    const expired = `${h}.${Buffer.from(JSON.stringify({ ...payload, exp: 1000 })).toString('base64url')}.${s}`;
    for (const bad of [tampered, expired, 'garbage']) {
      const res = await fetch(`${apiUrl}/rest/v1/contract_notes`, {
        headers: { apikey: anonKey, Authorization: `Bearer ${bad}` },
      });
      expect(res.status).toBe(401);
      expect((await res.json()).code).toBe('PGRST301');
    }
  });

  it('refuses a token once it has expired, even one PostgREST verified and cached before', async () => {
    // PostgREST caches verified tokens (PGRST_JWT_CACHE_MAX_LIFETIME) and allows 30 s of clock skew
    // on `exp`. A token that expired 27 s ago is still inside that allowance: accepted, so cached,
    // then refused within seconds, when the allowance runs out: a cache entry must not outlive it.
    const { apiUrl, anonKey } = backend();
    const secret = new TextEncoder().encode('super-secret-jwt-token-with-at-least-32-characters-long');
    const exp = Math.floor(Date.now() / 1000) - 27;
    const token = await new jose.SignJWT({ role: 'authenticated', sub: randomUUID(), exp })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(secret);
    const read = () =>
      fetch(`${apiUrl}/rest/v1/contract_notes?select=id&limit=1`, {
        headers: { apikey: anonKey, Authorization: `Bearer ${token}` },
      });
    const first = await read();
    await first.arrayBuffer();
    expect(first.status).toBe(200);
    let refused: Response | undefined;
    while (!refused && Date.now() / 1000 < exp + 40) {
      await new Promise((r) => setTimeout(r, 250));
      const res = await read();
      if (res.status === 200) await res.arrayBuffer();
      else refused = res;
    }
    expect(refused?.status).toBe(401);
    expect((await refused?.json()).code).toBe('PGRST301');
    expect(Date.now() / 1000).toBeGreaterThan(exp + 29);
  }, 20_000);

  it('answers a malformed JSON body with PGRST102', async () => {
    const { apiUrl, anonKey } = backend();
    const res = await fetch(`${apiUrl}/rest/v1/contract_notes`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: '{"body": ',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('PGRST102');
  });
});

describe('bad input to auth', () => {
  const url = (path: string) => `${backend().apiUrl}/auth/v1${path}`;
  const headers = () => ({
    apikey: backend().anonKey,
    'content-type': 'application/json',
    'X-Supabase-Api-Version': '2024-01-01',
    'X-Forwarded-For': '10.250.0.1',
  });

  it('answers malformed JSON and wrong types with bad_json', async () => {
    const malformed = await fetch(url('/signup'), {
      method: 'POST',
      headers: headers(),
      body: '{"email": "a@b.c", ',
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe('bad_json');
    const wrongType = await fetch(url('/token?grant_type=password'), {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ email: 42, password: ['x'] }),
    });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).code).toBe('bad_json');
    const notObject = await fetch(url('/signup'), { method: 'POST', headers: headers(), body: '[1,2,3]' });
    expect((await notObject.json()).code).toBe('bad_json');
  });

  it('refuses bodies over the limit with 413 and no stack trace', async () => {
    const res = await fetch(url('/signup'), {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(400_000) }),
    });
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.code).toBe('request_entity_too_large');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('treats SQL metacharacters in every field as data', async () => {
    const hostile = `' or 1=1; drop table auth.users; --`;
    for (const [path, body] of [
      ['/token?grant_type=password', { email: `x${hostile}@example.test`, password: hostile }],
      ['/signup', { email: `${hostile}@example.test`, password: hostile }],
      ['/otp', { email: hostile, create_user: false }],
      ['/verify', { email: 'a@example.test', token: hostile, type: 'email' }],
      ['/recover', { email: hostile }],
    ] as const) {
      const res = await fetch(url(path), { method: 'POST', headers: headers(), body: JSON.stringify(body) });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      const json = await res.json();
      expect(typeof json.code, path).toBe('string');
    }
    const stillThere = await confirmedUser('afterhostile');
    expect(stillThere.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an unknown grant type and an unknown logout scope', async () => {
    const grant = await fetch(url('/token?grant_type=magic'), {
      method: 'POST',
      headers: headers(),
      body: '{}',
    });
    expect(grant.status).toBe(400);
    const user = await confirmedUser('scope');
    const signIn = await fetch(url('/token?grant_type=password'), {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const { access_token } = await signIn.json();
    const logout = await fetch(url('/logout?scope=everything'), {
      method: 'POST',
      headers: { ...headers(), Authorization: `Bearer ${access_token}` },
    });
    expect(logout.status).toBe(400);
    expect((await logout.json()).code).toBe('validation_failed');
  });

  it('limits sign-in attempts per client address', async () => {
    const ip = '10.251.0.1';
    const attempt = () =>
      fetch(url('/token?grant_type=password'), {
        method: 'POST',
        headers: { ...headers(), 'X-Forwarded-For': ip },
        body: JSON.stringify({ email: 'nobody@example.test', password: 'wrong-password' }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual(Array.from({ length: 30 }, () => 400));
    // The 31st is the first one refused.
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe('over_request_rate_limit');
    const otherIp = await fetch(url('/token?grant_type=password'), {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ email: 'nobody@example.test', password: 'wrong-password' }),
    });
    expect(otherIp.status).toBe(400);
  });
});

/**
 * Sends `steps` on one connection; the bytes that came back, and whether the server closed it. It
 * waits for the server to close, or for an answer to each of `methods` (and a little more, for any
 * answer too many), at most 15 s.
 */
async function exchange(
  port: number,
  steps: Step[],
  methods: string[],
): Promise<{ data: Buffer; closed: boolean }> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  const chunks: Buffer[] = [];
  let closed = false;
  let last = performance.now();
  socket.on('data', (d: Buffer) => {
    chunks.push(d);
    last = performance.now();
  });
  socket.on('error', () => {});
  socket.on('close', () => (closed = true));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  for (const step of steps) {
    if (step === 'end') socket.end();
    else if (typeof step === 'object' && !Buffer.isBuffer(step)) await sleep(step.wait);
    else socket.write(step);
  }
  const deadline = performance.now() + 15_000;
  while (!closed && performance.now() < deadline) {
    if (parseAnswers(Buffer.concat(chunks), methods).complete >= methods.length) {
      if (performance.now() - last > 200) break;
    }
    await sleep(25);
  }
  socket.destroy();
  return { data: Buffer.concat(chunks), closed };
}

type Step = string | Buffer | { wait: number } | 'end';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const statuses = (answers: Answer[]) => answers.map((a) => a.status);

interface Answer {
  status: string;
  headers: string[];
  framing: 'length' | 'chunked' | 'none' | 'close';
  body: string;
}

/**
 * Splits what came back into answers (`methods` says which requests were HEADs); chunked bodies are
 * decoded, since where PostgREST's chunks end is TCP's business. After a 101, the rest is raw.
 */
function parseAnswers(
  data: Buffer,
  methods: string[],
): { answers: Answer[]; rest: string; complete: number } {
  const text = data.toString('latin1');
  const answers: Answer[] = [];
  let complete = 0;
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const [status = '', ...headers] = text.slice(at, end).split('\r\n');
    at = end + 4;
    const field = (name: string) =>
      headers
        .find((line) => line.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const code = Number(status.split(' ')[1]);
    let framing: Answer['framing'];
    let body = '';
    if (methods[i] === 'HEAD' || code === 204 || code === 304 || code < 200) framing = 'none';
    else if (field('transfer-encoding') === 'chunked') {
      framing = 'chunked';
      for (;;) {
        const eol = text.indexOf('\r\n', at);
        if (eol === -1) return { answers, rest: '', complete };
        const size = Number.parseInt(text.slice(at, eol), 16);
        at = eol + 2;
        if (size === 0) {
          at += 2;
          break;
        }
        body += text.slice(at, at + size);
        at += size + 2;
      }
    } else if (field('content-length') !== undefined) {
      framing = 'length';
      const length = Number(field('content-length'));
      if (at + length > text.length) return { answers, rest: '', complete };
      body = text.slice(at, at + length);
      at += length;
    } else {
      framing = 'close';
      body = text.slice(at);
      at = text.length;
    }
    answers.push({ status, headers, framing, body });
    if (framing !== 'close' && at <= text.length) complete++;
    if (code === 101) break;
  }
  return { answers, rest: text.slice(at), complete };
}

/** A stand-in for a service mounted on the gateway: answers with what it was given, as JSON. */
const echo =
  (service: string) =>
  async (req: http.IncomingMessage, res: http.ServerResponse, path: string, query: URLSearchParams) => {
    const body = (await readBody(req, 1 << 20)).toString('latin1');
    const authorization = req.headers.authorization ?? null;
    const payload = JSON.stringify({
      service,
      method: req.method,
      path,
      query: query.toString(),
      body,
      authorization,
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
    res.end(payload);
  };

function gatewayKeys() {
  const { anonKey, serviceRoleKey } = backend();
  return { anon: anonKey, serviceRole: serviceRoleKey, publishable: PUBLISHABLE_KEY, secret: SECRET_KEY };
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/**
 * A gateway in front of `postgrestPort` (the backend's PostgREST, or a stand-in), its other services
 * echoing what they got: its port, and how to close it.
 */
async function gatewayTo(postgrestPort: number): Promise<{ port: number; close: () => Promise<void> }> {
  const gateway = createGateway({
    keys: gatewayKeys(),
    auth: echo('auth'),
    storage: echo('storage'),
    realtime: {
      handle: echo('realtime'),
      upgrade: (_req, socket, head, path, query) => {
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
        socket.end(`upgraded ${path} apikey=${query.get('apikey')} ${head.toString('latin1')}`);
      },
    },
    postgrestPort,
  });
  const port = await listen(gateway);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        gateway.close(() => resolve());
        gateway.closeAllConnections();
      }),
  };
}

/** A PostgREST stand-in that writes each answer by hand, given the request's head. */
async function handWrittenUpstream(
  answer: (socket: net.Socket, head: string) => void,
): Promise<{ port: number; server: net.Server }> {
  const server = net.createServer((socket) => {
    let buf = '';
    socket.on('error', () => {});
    socket.on('data', (data: Buffer) => {
      buf += data.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end !== -1; end = buf.indexOf('\r\n\r\n')) {
        const head = buf.slice(0, end);
        buf = buf.slice(end + 4);
        answer(socket, head);
      }
    });
  });
  return { port: await listen(server), server };
}

describe('the gateway over HTTP/1.1, byte by byte', () => {
  let gateway: Awaited<ReturnType<typeof gatewayTo>>;
  let key: string;
  const get = (target: string, headers = '') =>
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nAuthorization: Bearer ${key}\r\n${headers}\r\n`;
  const send = (method: string, target: string, body: string, headers = '') =>
    `${method} ${target} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: application/json\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  beforeAll(async () => {
    key = backend().anonKey;
    const client = new pg.Client({ connectionString: backend().dbUrl });
    await client.connect();
    await client.query(`
      create table if not exists public.gateway_items (id int primary key, title text not null);
      alter table public.gateway_items enable row level security;
      drop policy if exists "anyone reads" on public.gateway_items;
      create policy "anyone reads" on public.gateway_items for select to anon, authenticated using (true);
      insert into public.gateway_items select i, 'item ' || i from generate_series(1, 40) i on conflict do nothing;
      create or replace function public.gateway_echo(x jsonb default null) returns jsonb
        language sql stable set search_path = '' as $$ select pg_catalog.jsonb_build_object('x', x) $$;
      create or replace function public.gateway_role() returns text
        language sql stable set search_path = '' as $$ select current_user::text $$;
    `);
    await client.end();
    gateway = await gatewayTo(Number(new URL(backend().postgrestUrl).port));
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`http://127.0.0.1:${gateway.port}/rest/v1/gateway_items?limit=1`, {
        headers: { apikey: key },
      });
      const rpc = await fetch(`http://127.0.0.1:${gateway.port}/rest/v1/rpc/gateway_echo`, {
        method: 'POST',
        headers: { apikey: key, 'content-type': 'application/json' },
        body: '{}',
      });
      const role = await fetch(`http://127.0.0.1:${gateway.port}/rest/v1/rpc/gateway_role`);
      await Promise.all([res.arrayBuffer(), rpc.arrayBuffer(), role.arrayBuffer()]);
      if (res.ok && rpc.ok && role.ok) return;
      await sleep(50);
    }
    throw new Error('PostgREST never saw public.gateway_items, gateway_echo and gateway_role');
  });

  // Other suites share this database and check every table in public (RLS coverage, advisors).
  afterAll(async () => {
    await gateway?.close();
    const client = new pg.Client({ connectionString: backend().dbUrl });
    await client.connect();
    await client.query('drop table if exists public.gateway_items');
    await client.query('drop function if exists public.gateway_echo(jsonb)');
    await client.query('drop function if exists public.gateway_role()');
    await client.end();
  });

  it('serves REST reads on one kept-alive connection, with CORS and without PostgREST’s hop-by-hop headers', async () => {
    const { data, closed } = await exchange(
      gateway.port,
      [
        get('/rest/v1/gateway_items?select=id,title&order=id.desc&limit=3&title=like.item*'),
        { wait: 100 },
        get(
          '/rest/v1/gateway_items?select=id&id=in.(1,2,3)',
          'Accept: application/vnd.pgrst.object+json\r\n',
        ),
        { wait: 100 },
        `HEAD /rest/v1/gateway_items?select=id HTTP/1.1\r\nhost: localhost\r\nAPIKEY: ${key}\r\nPrefer: count=exact\r\nRange-Unit: items\r\nRange: 0-9\r\n\r\n`,
        { wait: 100 },
        get('/rest/v1/no_such_table'),
        { wait: 100 },
        get('/rest/v1/gateway_items?id=eq.not-a-number'),
        { wait: 100 },
        get('/rest/v1/gateway_items?select=id&id=eq.7', 'Accept: text/csv\r\nConnection: keep-alive\r\n'),
      ],
      ['GET', 'GET', 'HEAD', 'GET', 'GET', 'GET'],
    );
    const { answers } = parseAnswers(data, ['GET', 'GET', 'HEAD', 'GET', 'GET', 'GET']);
    expect(statuses(answers)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 406 Not Acceptable',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 404 Not Found',
      'HTTP/1.1 400 Bad Request',
      'HTTP/1.1 200 OK',
    ]);
    expect(JSON.parse(answers[0]!.body)).toEqual([
      { id: 40, title: 'item 40' },
      { id: 39, title: 'item 39' },
      { id: 38, title: 'item 38' },
    ]);
    expect(answers[2]!.headers).toContainEqual(expect.stringMatching(/^Content-Range: \d+-\d+\/40$/));
    expect(answers[2]!.body).toBe('');
    expect(answers[5]!.body).toBe('id\n7');
    for (const [i, answer] of answers.entries()) {
      expect(answer.headers).toContain('Access-Control-Allow-Origin: *');
      expect(answer.headers).toContain('Connection: keep-alive');
      // One of each: the gateway's own framing and date, none of PostgREST's passed on as well. The
      // HEAD's answer has no body to frame.
      const once = ['date', 'connection', 'vary', ...(i === 2 ? [] : ['content-length|transfer-encoding'])];
      for (const name of once) {
        const lines = answer.headers.filter((line) => new RegExp(`^(${name}):`, 'i').test(line));
        expect(lines, `${answer.status} ${name}`).toHaveLength(1);
      }
    }
    expect(answers[2]!.headers.join('\n')).not.toMatch(/transfer-encoding/i);
    expect(closed).toBe(false);
  });

  it('sends REST calls and writes with their bodies, however framed', async () => {
    const methods = ['POST', 'POST', 'POST', 'POST', 'PATCH', 'POST', 'POST', 'POST'];
    const { data, closed } = await exchange(
      gateway.port,
      [
        // Content-Length counts bytes: "é" and "✓" are two and three.
        Buffer.from(send('POST', '/rest/v1/rpc/gateway_echo', '{"x":{"word":"café ✓","n":[1,2]}}')),
        { wait: 100 },
        send('POST', '/rest/v1/rpc/gateway_echo', ''),
        { wait: 100 },
        send('POST', '/rest/v1/rpc/gateway_echo', '{"x":'),
        { wait: 100 },
        send(
          'POST',
          '/rest/v1/gateway_items',
          '{"id":1000,"title":"no"}',
          'Prefer: return=representation\r\n',
        ),
        { wait: 100 },
        send(
          'PATCH',
          '/rest/v1/gateway_items?id=eq.1',
          '{"title":"changed"}',
          'Prefer: return=representation\r\n',
        ),
        { wait: 100 },
        send('POST', '/rest/v1/rpc/no_such_function', '{}'),
        { wait: 100 },
        // Chunked, in three TCP reads.
        `POST /rest/v1/rpc/gateway_echo HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"x"`,
        { wait: 50 },
        '\r\n4\r\n:"ch\r\n',
        { wait: 50 },
        '5\r\nunk"}\r\n0\r\n\r\n',
        { wait: 100 },
        // A body sent only once asked for.
        send('POST', '/rest/v1/rpc/gateway_echo', '{"x":"later"}', 'Expect: 100-continue\r\n').replace(
          /\{"x":"later"\}$/,
          '',
        ),
        { wait: 100 },
        '{"x":"later"}',
      ],
      [...methods, 'POST'],
    );
    const { answers } = parseAnswers(data, [...methods.slice(0, 7), 'POST', 'POST']);
    expect(statuses(answers)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 400 Bad Request',
      'HTTP/1.1 401 Unauthorized',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 404 Not Found',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 100 Continue',
      'HTTP/1.1 200 OK',
    ]);
    expect(JSON.parse(Buffer.from(answers[0]!.body, 'latin1').toString('utf8'))).toEqual({
      x: { word: 'café ✓', n: [1, 2] },
    });
    expect(JSON.parse(answers[1]!.body)).toEqual({ x: null });
    // Row-level security: anon may read the items but not add or change them.
    expect(JSON.parse(answers[4]!.body)).toEqual([]);
    expect(JSON.parse(answers[6]!.body)).toEqual({ x: 'chunk' });
    expect(JSON.parse(answers[8]!.body)).toEqual({ x: 'later' });
    for (const answer of answers.filter((a) => !a.status.includes(' 100 '))) {
      expect(answer.headers).toContain('Access-Control-Allow-Origin: *');
    }
    expect(closed).toBe(false);
  });

  it('takes the key from the query string, and serves the root', async () => {
    const methods = ['GET', 'GET', 'GET'];
    const { data } = await exchange(
      gateway.port,
      [
        `GET /rest/v1/gateway_items?select=title&apikey=${key} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
        { wait: 100 },
        get('/rest/v1/'),
        { wait: 100 },
        get('/rest/v1'),
      ],
      methods,
    );
    const { answers } = parseAnswers(data, methods);
    // PostgREST takes the query's `apikey` for a filter (which it cannot parse), as behind Kong.
    expect(statuses(answers)).toEqual(['HTTP/1.1 400 Bad Request', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ code: 'PGRST100' });
    expect(JSON.parse(answers[1]!.body)).toMatchObject({ swagger: '2.0' }); // the OpenAPI description
    expect(answers[2]!.body).toBe(answers[1]!.body);
  });

  it('lets missing and unknown keys through to PostgREST, answers preflights, and routes the other services', async () => {
    const post = (path: string, body: string) =>
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const cases: Array<[string, string, string | RegExp]> = [
      // kong.yml has no key-auth: PostgREST sees no bearer token and answers as anon, whom RLS lets read.
      [
        `GET /rest/v1/gateway_items?id=eq.3 HTTP/1.1\r\nHost: localhost\r\n\r\n`,
        'HTTP/1.1 200 OK',
        /^\[\{"id":3,/,
      ],
      [
        `GET /rest/v1/gateway_items?id=eq.3 HTTP/1.1\r\nHost: localhost\r\napikey: forged\r\n\r\n`,
        'HTTP/1.1 200 OK',
        /^\[\{"id":3,/,
      ],
      [
        `GET /rest/v1/gateway_items?id=eq.3 HTTP/1.1\r\nHost: localhost\r\napikey:\r\n\r\n`,
        'HTTP/1.1 200 OK',
        /^\[\{"id":3,/,
      ],
      [
        'OPTIONS /rest/v1/gateway_items HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost:3000\r\n' +
          'Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: apikey, prefer\r\n\r\n',
        'HTTP/1.1 200 OK',
        '',
      ],
      // …and refuses anon a write: PostgREST's 401, not the gateway's.
      [
        post('/rest/v1/gateway_items', '{"id":1000}').replace(/apikey: [^\r]*\r\n/, ''),
        'HTTP/1.1 401 Unauthorized',
        /"code":"42501"/,
      ],
      [
        post('/auth/v1/token?grant_type=password', '{"email":"a@b.c"}'),
        'HTTP/1.1 200 OK',
        /"service":"auth","method":"POST","path":"\/token","query":"grant_type=password","body":"\{\\"email\\":\\"a@b.c\\"\}"/,
      ],
      [get('/auth/v1/settings'), 'HTTP/1.1 200 OK', /"service":"auth"/],
      [get('/storage/v1/bucket?limit=2'), 'HTTP/1.1 200 OK', /"service":"storage".*"query":"limit=2"/],
      [
        `GET /storage/v1/object/public/b/x.png HTTP/1.1\r\nHost: localhost\r\n\r\n`,
        'HTTP/1.1 200 OK',
        /"path":"\/object\/public\/b\/x.png"/,
      ],
      [get('/realtime/v1/api/broadcast'), 'HTTP/1.1 200 OK', /"service":"realtime"/],
      // No functions are mounted on this gateway.
      [get('/functions/v1/hello'), 'HTTP/1.1 404 Not Found', 'no Route matched with those values'],
      [get('/nothing/here'), 'HTTP/1.1 404 Not Found', 'no Route matched with those values'],
      [get('/rest/v2/gateway_items'), 'HTTP/1.1 404 Not Found', 'no Route matched with those values'],
      [get('/rest/v1x/gateway_items'), 'HTTP/1.1 404 Not Found', 'no Route matched with those values'],
    ];
    for (const [request, status, body] of cases) {
      const method = request.split(' ')[0] ?? 'GET';
      const { answers } = parseAnswers((await exchange(gateway.port, [request], [method])).data, [method]);
      expect(statuses(answers), request).toEqual([status]);
      expect(answers[0]!.headers, request).toContain('Access-Control-Allow-Origin: *');
      if (typeof body === 'string') {
        expect(body ? JSON.parse(answers[0]!.body).message : answers[0]!.body, request).toBe(body);
      } else expect(answers[0]!.body, request).toMatch(body);
    }
  });

  it('hands a websocket upgrade over with the bytes after its head', async () => {
    const upgrade = await exchange(
      gateway.port,
      [
        `GET /realtime/v1/websocket?apikey=${key}&vsn=1.0.0 HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n` +
          'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\nfirst-frame',
      ],
      ['GET'],
    );
    const { answers, rest } = parseAnswers(upgrade.data, ['GET']);
    expect(statuses(answers)).toEqual(['HTTP/1.1 101 Switching Protocols']);
    expect(rest).toBe(`upgraded /websocket apikey=${key} first-frame`);
    // `realtime-v1-ws` checks no key either (realtime does), and sends an opaque one on as its JWT
    // (start.go's QueryToken).
    const upgradeWith = (query: string) =>
      `GET /realtime/v1/websocket${query} HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n` +
      'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
    const { anon, serviceRole } = gatewayKeys();
    for (const [query, seen] of [
      ['?vsn=1.0.0', 'null'],
      ['?apikey=forged', 'forged'],
      [`?apikey=${PUBLISHABLE_KEY}&vsn=2.0.0`, anon],
      [`?apikey=${SECRET_KEY}`, serviceRole],
    ] as const) {
      const handed = await exchange(gateway.port, [upgradeWith(query)], ['GET']);
      const parsed = parseAnswers(handed.data, ['GET']);
      expect(statuses(parsed.answers), query).toEqual(['HTTP/1.1 101 Switching Protocols']);
      expect(parsed.rest, query).toBe(`upgraded /websocket apikey=${seen} `);
    }
    // An upgrade elsewhere is refused before it happens.
    const refused = await exchange(
      gateway.port,
      [get('/rest/v1/gateway_items', 'Connection: Upgrade\r\nUpgrade: websocket\r\n')],
      ['GET'],
    );
    expect(statuses(parseAnswers(refused.data, ['GET']).answers)).toEqual(['HTTP/1.1 404 Not Found']);
    expect(refused.closed).toBe(true);
  });

  it('derives the Authorization each service gets from the apikey, where kong.yml’s request-transformer does', async () => {
    const { anon, serviceRole } = gatewayKeys();
    const request = (path: string, headers: Record<string, string>) =>
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`;
    // [path, headers sent, Authorization the service gets (null: none)]
    const cases: Array<[string, Record<string, string>, string | null]> = [
      // The caller's own token goes through, whatever the apikey.
      [
        '/auth/v1/user',
        { apikey: PUBLISHABLE_KEY, Authorization: 'Bearer user.jwt.here' },
        'Bearer user.jwt.here',
      ],
      ['/auth/v1/user', { Authorization: 'Basic abc' }, 'Basic abc'],
      // Without one, the opaque keys become their JWTs; so does a bearer token that is an opaque key.
      ['/auth/v1/user', { apikey: PUBLISHABLE_KEY }, `Bearer ${anon}`],
      ['/storage/v1/bucket', { apikey: SECRET_KEY }, `Bearer ${serviceRole}`],
      [
        '/auth/v1/user',
        { apikey: SECRET_KEY, Authorization: `Bearer ${SECRET_KEY}` },
        `Bearer ${serviceRole}`,
      ],
      ['/realtime/v1/api/broadcast', { apikey: SECRET_KEY }, `Bearer ${serviceRole}`],
      // A legacy key, or anything else, is sent on as it came, without `Bearer `.
      ['/storage/v1/bucket', { apikey: anon }, anon],
      ['/auth/v1/user', { apikey: 'forged' }, 'forged'],
      ['/auth/v1/user', { apikey: anon, Authorization: 'Bearer sb_publishable_unknown' }, anon],
      // With no apikey, an opaque bearer token is taken away; nothing is added where nothing came.
      ['/auth/v1/user', { Authorization: 'Bearer sb_secret_whatever' }, ''],
      ['/auth/v1/user', {}, null],
      // The routes without the transformer: email links, OAuth redirects, S3 and the realtime socket's.
      ['/auth/v1/verify?token=x&type=signup', { apikey: PUBLISHABLE_KEY }, null],
      ['/auth/v1/callback', { apikey: SECRET_KEY }, null],
      ['/auth/v1/authorize?provider=github', { apikey: SECRET_KEY }, null],
      [
        '/storage/v1/s3/bucket',
        { apikey: SECRET_KEY, Authorization: 'AWS4-HMAC-SHA256 Credential=x' },
        'AWS4-HMAC-SHA256 Credential=x',
      ],
      ['/storage/v1/s3/bucket', { apikey: SECRET_KEY }, null],
      ['/realtime/v1/websocket', { apikey: SECRET_KEY }, null],
    ];
    for (const [path, headers, expected] of cases) {
      const { answers } = parseAnswers(
        (await exchange(gateway.port, [request(path, headers)], ['GET'])).data,
        ['GET'],
      );
      expect(statuses(answers), path).toEqual(['HTTP/1.1 200 OK']);
      expect(JSON.parse(answers[0]!.body).authorization, `${path} ${JSON.stringify(headers)}`).toBe(expected);
    }
  });

  it('runs REST calls as the role the derived Authorization names', async () => {
    const { anon, serviceRole } = gatewayKeys();
    const role = async (headers: Record<string, string>) => {
      const res = await fetch(`http://127.0.0.1:${gateway.port}/rest/v1/rpc/gateway_role`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      return res.json();
    };
    expect(await role({ apikey: SECRET_KEY })).toBe('service_role');
    expect(await role({ apikey: SECRET_KEY, Authorization: `Bearer ${SECRET_KEY}` })).toBe('service_role');
    expect(await role({ apikey: PUBLISHABLE_KEY, Authorization: `Bearer ${PUBLISHABLE_KEY}` })).toBe('anon');
    expect(await role({ apikey: 'forged', Authorization: `Bearer ${serviceRole}` })).toBe('service_role');
    // A legacy key alone reaches PostgREST without `Bearer `, which it does not read as a token: anon,
    // even for the service_role key, as behind the CLI's Kong.
    expect(await role({ apikey: serviceRole })).toBe('anon');
    expect(await role({ apikey: anon })).toBe('anon');
    expect(await role({})).toBe('anon');
  });

  it('answers pipelined requests, and requests sent before an answer came, in order', async () => {
    const pipelined = await exchange(
      gateway.port,
      [
        get('/rest/v1/gateway_items?id=eq.1') +
          get('/auth/v1/health') +
          get('/rest/v1/gateway_items?id=eq.2'),
      ],
      ['GET', 'GET', 'GET'],
    );
    expect(parseAnswers(pipelined.data, ['GET', 'GET', 'GET']).answers.map((a) => a.body)).toEqual([
      '[{"id":1,"title":"item 1"}]',
      expect.stringContaining('"service":"auth"'),
      '[{"id":2,"title":"item 2"}]',
    ]);
    // A PostgREST stand-in that takes its time, so that the next requests come while it works.
    const slowUpstream = http.createServer((req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ url: req.url }));
      }, 100);
    });
    const slow = await gatewayTo(await listen(slowUpstream));
    try {
      const methods = ['GET', 'GET', 'POST', 'GET'];
      const { data } = await exchange(
        slow.port,
        [
          get('/rest/v1/a'),
          { wait: 20 },
          get('/rest/v1/b'),
          { wait: 20 },
          `POST /auth/v1/c HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Length: 5\r\n\r\nhello`,
          { wait: 20 },
          get('/rest/v1/d'),
        ],
        methods,
      );
      expect(parseAnswers(data, methods).answers.map((a) => a.body)).toEqual([
        '{"url":"/a"}',
        '{"url":"/b"}',
        expect.stringContaining('"body":"hello"'),
        '{"url":"/d"}',
      ]);
    } finally {
      await slow.close();
      slowUpstream.close();
    }
  });

  it('serves a request whose head and body come across several TCP reads', async () => {
    const request = get('/rest/v1/gateway_items?id=eq.5');
    const methods = ['GET', 'POST', 'GET'];
    const { data } = await exchange(
      gateway.port,
      [
        request.slice(0, 10),
        { wait: 30 },
        request.slice(10, 40),
        { wait: 30 },
        request.slice(40),
        { wait: 100 },
        `POST /storage/v1/object/b/x HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Length: 6\r\n\r\n`,
        { wait: 30 },
        'body!!',
        { wait: 100 },
        send('POST', '/rest/v1/rpc/gateway_echo', '{"x":"split"}').slice(0, -4),
        { wait: 30 },
        send('POST', '/rest/v1/rpc/gateway_echo', '{"x":"split"}').slice(-4),
      ],
      methods,
    );
    const { answers } = parseAnswers(data, methods);
    expect(statuses(answers)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    expect(answers[0]!.body).toBe('[{"id":5,"title":"item 5"}]');
    expect(JSON.parse(answers[1]!.body)).toMatchObject({ service: 'storage', body: 'body!!' });
    expect(JSON.parse(answers[2]!.body)).toEqual({ x: 'split' });
  });

  it('honours Connection: close and a client that ends its side', async () => {
    const closing = await exchange(
      gateway.port,
      [get('/rest/v1/gateway_items?id=eq.6', 'Connection: close\r\n')],
      ['GET'],
    );
    expect(closing.closed).toBe(true);
    const [answer] = parseAnswers(closing.data, ['GET']).answers;
    expect(answer?.headers).toContain('Connection: close');
    expect(answer?.body).toBe('[{"id":6,"title":"item 6"}]');
    // An answer that was out before the client ended its side, was; the connection then closes.
    const answeredFirst = await exchange(
      gateway.port,
      [get('/rest/v1/gateway_items?id=eq.6'), { wait: 150 }, 'end'],
      ['GET'],
    );
    expect(answeredFirst.closed).toBe(true);
    expect(parseAnswers(answeredFirst.data, ['GET']).answers.map((a) => a.body)).toEqual([
      '[{"id":6,"title":"item 6"}]',
    ]);
  });

  it('answers bad requests with a 4xx and unusual good ones as PostgREST does', async () => {
    const rpc = (body: string, headers: string) =>
      `POST /rest/v1/rpc/gateway_echo HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
    const items = (target: string, headers = '') =>
      `GET ${target} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n${headers}\r\n`;
    const cases: Array<[Step[], string[]]> = [
      // Malformed: node:http's parser refuses them before any route sees them.
      [['GARBAGE\r\n\r\n'], ['HTTP/1.1 400 Bad Request']],
      [['GET /rest/v1/gateway_items HTTP/1.1\r\n\r\n'], ['HTTP/1.1 400 Bad Request']], // no Host
      [[items('/rest/v1/gateway_items').replace('GET', 'get')], ['HTTP/1.1 400 Bad Request']],
      [[items('/rest/v1/gateway_items', 'X-Folded: a\r\n b\r\n')], ['HTTP/1.1 400 Bad Request']],
      [[items('/rest/v1/gateway_items?title=eq."item 1"')], ['HTTP/1.1 400 Bad Request']],
      [[items('/rest/v1/gateway_items', 'X-Bad: a\u0001b\r\n')], ['HTTP/1.1 400 Bad Request']],
      [[items('/rest/v1/gateway_items').replace('apikey:', 'apikey :')], ['HTTP/1.1 400 Bad Request']],
      [
        [items('/rest/v1/gateway_items?id=eq.8', `X-Huge: ${'x'.repeat(20000)}\r\n`)],
        ['HTTP/1.1 431 Request Header Fields Too Large'],
      ],
      [[rpc('{}', 'Content-Length: 2\r\nContent-Length: 2\r\n')], ['HTTP/1.1 400 Bad Request']],
      [[rpc('{}', 'Content-Length: +2\r\n')], ['HTTP/1.1 400 Bad Request']],
      [[rpc('{}', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n')], ['HTTP/1.1 400 Bad Request']],
      [[items('/rest/v1/gateway_items?id=eq.8').replace(/\r\n/g, '\n')], ['HTTP/1.1 400 Bad Request']],
      // Without a length a POST has no body, and what follows it in the read is no request.
      [[rpc('{}', '')], ['HTTP/1.1 400 Bad Request']],
      // Unusual but well formed: passed on.
      [[items('/rest/v1/gateway_items?id=eq.8').replace('HTTP/1.1', 'HTTP/1.0')], ['HTTP/1.1 200 OK']],
      [[items('/rest/v1/gateway_items?title=eq.{x}|"y"')], ['HTTP/1.1 200 OK']],
      [[items('/rest/v1/gateway_items?id=eq.8', `Host: elsewhere\r\n`)], ['HTTP/1.1 200 OK']],
      [
        [items('/rest/v1/gateway_items?id=eq.8', 'Expect: 100-continue\r\n')],
        ['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK'],
      ],
      [[items('/rest/v1/gateway_items?id=eq.8', 'Content-Length: 0\r\n')], ['HTTP/1.1 200 OK']],
      [[items('/rest/v1/gateway_items?id=eq.8', 'Content-Length: 4\r\n') + 'abcd'], ['HTTP/1.1 200 OK']],
      [
        [
          items('/rest/v1/gateway_items?id=eq.8', 'Transfer-Encoding: chunked\r\n') +
            '4\r\nabcd\r\n0\r\n\r\n',
        ],
        ['HTTP/1.1 200 OK'],
      ],
      [
        [items('/rest/v1/gateway_items?id=eq.8', 'Connection: keep-alive, TE\r\nTE: trailers\r\n')],
        ['HTTP/1.1 200 OK'],
      ],
      [[items('/rest/v1/gateway_items?id=eq.8', `X-Long: ${'x'.repeat(9000)}\r\n`)], ['HTTP/1.1 200 OK']],
      [[rpc('{}', 'Content-Length: 02\r\n')], ['HTTP/1.1 200 OK']],
      [[rpc('', '')], ['HTTP/1.1 200 OK']], // no length: no body
      [[rpc(`{"x":"${'y'.repeat(17_000)}"}`, `Content-Length: ${17_000 + 8}\r\n`)], ['HTTP/1.1 200 OK']],
      // A delete with no filter: refused by the database (hosted's safeupdate, emulated), not the gateway.
      [
        [`DELETE /rest/v1/gateway_items HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`],
        ['HTTP/1.1 400 Bad Request'],
      ],
      [
        [`DELETE /rest/v1/gateway_items?id=eq.1 HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`],
        ['HTTP/1.1 204 No Content'],
      ],
    ];
    for (const [steps, expected] of cases) {
      const methods = expected.map(() => String(steps[0]).split(' ')[0] ?? 'GET');
      const { answers } = parseAnswers((await exchange(gateway.port, steps, methods)).data, methods);
      expect.soft(statuses(answers), JSON.stringify(steps[0]).slice(0, 160)).toEqual(expected);
    }
  });
});

describe('the gateway in front of a PostgREST that misbehaves', () => {
  let key: string;
  const get = (target: string, headers = '') =>
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n${headers}\r\n`;
  beforeAll(() => {
    key = backend().anonKey;
  });

  it('passes on heads written every way, framed every way, and answers 502 to one node:http refuses', async () => {
    // Heads written by hand: spacing, case and framing node:http would not use, headers the gateway
    // drops or replaces, a UTF-8 value, and one value node:http refuses to write.
    const heads: Record<string, string> = {
      '/spaced':
        'HTTP/1.1 200 OK\r\nx-odd:   padded  \r\ncontent-length:2\r\nDATE: Tue, 01 Jan 2030 00:00:00 GMT\r\n\r\nok',
      '/chunked':
        'HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nAccess-Control-Allow-Origin: https://elsewhere.test\r\nKeep-Alive: timeout=5\r\nVary: Accept\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\nX-Trailer: t\r\n\r\n',
      '/close': 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nuntil the end',
      '/empty-value': 'HTTP/1.1 204 No Content\r\nX-Empty: \r\nX-Trailing-Tab: a\t\r\n\r\n',
      '/utf8': `HTTP/1.1 200 OK\r\nContent-Location: /items?title=eq.${Buffer.from('café', 'utf8').toString('latin1')}\r\nContent-Length: 2\r\n\r\nok`,
      '/refused': 'HTTP/1.1 200 OK\r\nX-Bad: a\x01b\r\nContent-Length: 2\r\n\r\nno',
      '/garbage': 'garbage\r\n\r\n',
    };
    const upstream = await handWrittenUpstream((socket, head) => {
      const path = /^GET (\S+)/.exec(head)?.[1] ?? '';
      socket.write(heads[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n', 'latin1');
      if (path === '/close' || path === '/garbage') socket.end();
    });
    const odd = await gatewayTo(upstream.port);
    const answer = async (path: string) => {
      const { data } = await exchange(odd.port, [get(`/rest/v1${path}`)], ['GET']);
      const { answers } = parseAnswers(data, ['GET']);
      expect(answers, path).toHaveLength(1);
      return answers[0]!;
    };
    try {
      const spaced = await answer('/spaced');
      expect(spaced.status).toBe('HTTP/1.1 200 OK');
      expect(spaced.headers).toContain('x-odd: padded');
      expect(spaced.headers).toContain('DATE: Tue, 01 Jan 2030 00:00:00 GMT');
      expect(spaced.body).toBe('ok');
      const chunked = await answer('/chunked');
      expect(chunked.status).toBe('HTTP/1.1 201 Created');
      expect(chunked.framing).toBe('chunked');
      expect(chunked.body).toBe('abcdefg');
      expect(chunked.headers).toContain('Access-Control-Allow-Origin: *');
      expect(chunked.headers).toContain('Vary: Origin');
      expect(chunked.headers.join('\n')).not.toMatch(/elsewhere|timeout=5|Vary: Accept|X-Trailer/);
      const close = await answer('/close');
      expect(close.status).toBe('HTTP/1.1 200 OK');
      expect(close.body).toBe('until the end');
      expect(close.headers).toContain('Connection: keep-alive');
      const empty = await answer('/empty-value');
      expect(empty.status).toBe('HTTP/1.1 204 No Content');
      expect(empty.headers).toEqual(expect.arrayContaining(['X-Empty: ', 'X-Trailing-Tab: a']));
      const utf8 = await answer('/utf8');
      expect(
        Buffer.from(utf8.headers.find((h) => h.startsWith('Content-Location')) ?? '', 'latin1').toString(),
      ).toBe('Content-Location: /items?title=eq.café');
      for (const path of ['/refused', '/garbage']) {
        const refused = await answer(path);
        expect(refused.status, path).toBe('HTTP/1.1 502 Bad Gateway');
        expect(JSON.parse(refused.body)).toEqual({
          message: 'An invalid response was received from the upstream server',
        });
        expect(refused.headers).toContain('Access-Control-Allow-Origin: *');
      }
    } finally {
      await odd.close();
      upstream.server.close();
    }
  });

  it('keeps its connections to PostgREST alive between requests', async () => {
    let connections = 0;
    const upstream = await handWrittenUpstream((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]'),
    );
    upstream.server.on('connection', () => connections++);
    const gateway = await gatewayTo(upstream.port);
    try {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`http://127.0.0.1:${gateway.port}/rest/v1/items?i=${i}`, {
          headers: { apikey: key },
        });
        expect(await res.text()).toBe('[]');
      }
      expect(connections).toBe(1);
    } finally {
      await gateway.close();
      upstream.server.close();
    }
  });

  it('streams a large answer to a client that reads slowly, whole and in order', async () => {
    const size = 8 * 1024 * 1024;
    const body = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) body.writeUInt32BE(i, i);
    const upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(body);
    });
    const big = await gatewayTo(await listen(upstream));
    try {
      const socket = net.connect({ port: big.port, host: '127.0.0.1' });
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.pause();
      socket.write(get('/rest/v1/big'));
      // Nothing is read for a while: the gateway must hold PostgREST back, not lose bytes.
      await sleep(500);
      const chunks: Buffer[] = [];
      const done = new Promise<void>((resolve) => {
        socket.on('data', (d: Buffer) => {
          chunks.push(d);
          if (Buffer.concat(chunks).subarray(-5).toString('latin1') === '0\r\n\r\n') resolve();
        });
      });
      socket.resume();
      await done;
      socket.destroy();
      const answer = parseAnswers(Buffer.concat(chunks), ['GET']).answers[0];
      expect(answer?.status).toBe('HTTP/1.1 200 OK');
      expect(answer?.framing).toBe('chunked');
      expect(Buffer.from(answer?.body ?? '', 'latin1').equals(body)).toBe(true);
    } finally {
      await big.close();
      upstream.close();
    }
  }, 30_000);

  it('stops reading PostgREST’s answer when the client goes away', async () => {
    let upstreamClosed = false;
    const upstream = http.createServer((_req, res) => {
      res.on('close', () => (upstreamClosed = true));
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      // An answer that never ends: only the gateway's giving up stops it.
      const chunk = Buffer.alloc(64 * 1024);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const gateway = await gatewayTo(await listen(upstream));
    try {
      const socket = net.connect({ port: gateway.port, host: '127.0.0.1' });
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(get('/rest/v1/endless'));
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.destroy();
      for (let i = 0; i < 100 && !upstreamClosed; i++) await sleep(20);
      expect(upstreamClosed).toBe(true);
    } finally {
      await gateway.close();
      upstream.close();
    }
  });

  it('answers 502 when PostgREST cannot be reached', async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await gatewayTo(port);
    try {
      const methods = ['GET', 'HEAD', 'POST'];
      const { data, closed: connectionClosed } = await exchange(
        down.port,
        [
          get('/rest/v1/gateway_items'),
          { wait: 100 },
          `HEAD /rest/v1/x HTTP/1.1\r\nHost: l\r\napikey: ${key}\r\n\r\n`,
          { wait: 100 },
          `POST /rest/v1/rpc/f HTTP/1.1\r\nHost: l\r\napikey: ${key}\r\nContent-Length: 2\r\n\r\n{}`,
        ],
        methods,
      );
      const { answers } = parseAnswers(data, methods);
      expect(statuses(answers)).toEqual([
        'HTTP/1.1 502 Bad Gateway',
        'HTTP/1.1 502 Bad Gateway',
        'HTTP/1.1 502 Bad Gateway',
      ]);
      expect(JSON.parse(answers[0]!.body)).toEqual({
        message: 'An invalid response was received from the upstream server',
      });
      expect(answers[1]!.headers).toContain('Content-Type: application/json');
      expect(connectionClosed).toBe(false);
    } finally {
      await down.close();
    }
  });

  it('closes idle keep-alive connections when it closes', async () => {
    const upstream = await handWrittenUpstream((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]'),
    );
    const gateway = createGateway({
      keys: gatewayKeys(),
      auth: echo('auth'),
      storage: echo('storage'),
      realtime: { handle: echo('realtime'), upgrade: (_req, socket) => socket.destroy() },
      postgrestPort: upstream.port,
    });
    const port = await listen(gateway);
    try {
      const socket = net.connect({ port, host: '127.0.0.1' });
      socket.on('error', () => {});
      const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.write(get('/rest/v1/items'));
      await answered;
      const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const t0 = performance.now();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
      await socketClosed;
      expect(performance.now() - t0).toBeLessThan(2000);
    } finally {
      upstream.server.close();
    }
  });
});
