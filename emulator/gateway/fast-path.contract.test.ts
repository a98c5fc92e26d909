// The gateway's fast path against node:http's: the same raw bytes sent to two gateways in front of
// the same PostgREST, one with the fast path and one without, must get the same answers — status
// line, headers (but Date), body, and whether the connection is closed. The other services are
// stand-ins that echo what they got, so a request handed over with its body shows it arrived whole.
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from '../../tests/support/backend.ts';
import { readBody } from '../lib/http.ts';
import { createGateway } from './gateway.ts';

interface Pair {
  slow: number;
  fast: number;
  /** Requests node:http parsed on the fast gateway (what the fast path handed over). */
  handedOver: () => number;
  close: () => Promise<void>;
}

const echo =
  (service: string) =>
  async (req: http.IncomingMessage, res: http.ServerResponse, path: string, query: URLSearchParams) => {
    const body = (await readBody(req, 1 << 20)).toString('latin1');
    const payload = JSON.stringify({ service, method: req.method, path, query: query.toString(), body });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
    res.end(payload);
  };

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

async function gatewayPair(postgrestPort: number): Promise<Pair> {
  const { anonKey, serviceRoleKey } = backend();
  const make = (fastPath: boolean) =>
    createGateway({
      apiKeys: [anonKey, serviceRoleKey],
      auth: echo('auth'),
      storage: echo('storage'),
      realtime: {
        handle: echo('realtime'),
        upgrade: (req, socket, head, path) => {
          socket.write(
            `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
          );
          socket.end(`upgraded ${path} ${head.toString('latin1')}`);
        },
      },
      postgrestPort,
      fastPath,
    });
  const slow = make(false);
  const fast = make(true);
  let handedOver = 0;
  fast.on('request', () => handedOver++);
  const ports = [await listen(slow), await listen(fast)] as const;
  return {
    slow: ports[0],
    fast: ports[1],
    handedOver: () => handedOver,
    close: async () => {
      for (const server of [slow, fast]) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
    },
  };
}

type Step = string | Buffer | { wait: number } | 'end';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    const [status = '', ...lines] = text.slice(at, end).split('\r\n');
    at = end + 4;
    // The time it was answered is the one thing that may differ.
    const headers = lines.map((line) => line.replace(/^date:.*/i, 'Date: (now)'));
    const field = (name: string) =>
      lines
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

/** Sends `steps` to both gateways; the fast one's answers, after checking they equal node:http's. */
async function differential(pair: Pair, steps: Step[], methods: string[]) {
  const [slow, fast] = await Promise.all([
    exchange(pair.slow, steps, methods),
    exchange(pair.fast, steps, methods),
  ]);
  const a = parseAnswers(slow.data, methods);
  const b = parseAnswers(fast.data, methods);
  expect(b).toEqual(a);
  expect(b.complete).toBe(b.answers.filter((answer) => answer.framing !== 'close').length);
  expect(fast.closed).toBe(slow.closed);
  return { ...b, closed: fast.closed };
}

describe('the gateway’s fast path answers as node:http does', () => {
  let pair: Pair;
  let key: string;
  const get = (target: string, headers = '') =>
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nAuthorization: Bearer ${key}\r\n${headers}\r\n`;

  beforeAll(async () => {
    key = backend().anonKey;
    const client = new pg.Client({ connectionString: backend().dbUrl });
    await client.connect();
    await client.query(`
      create table if not exists public.fast_path_items (id int primary key, title text not null);
      alter table public.fast_path_items enable row level security;
      drop policy if exists "anyone reads" on public.fast_path_items;
      create policy "anyone reads" on public.fast_path_items for select to anon, authenticated using (true);
      insert into public.fast_path_items select i, 'item ' || i from generate_series(1, 40) i on conflict do nothing;
      create or replace function public.fast_path_echo(x jsonb default null) returns jsonb
        language sql stable set search_path = '' as $$ select pg_catalog.jsonb_build_object('x', x) $$;
    `);
    await client.end();
    pair = await gatewayPair(Number(new URL(backend().postgrestUrl).port));
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`http://127.0.0.1:${pair.slow}/rest/v1/fast_path_items?limit=1`, {
        headers: { apikey: key },
      });
      const rpc = await fetch(`http://127.0.0.1:${pair.slow}/rest/v1/rpc/fast_path_echo`, {
        method: 'POST',
        headers: { apikey: key, 'content-type': 'application/json' },
        body: '{}',
      });
      if (res.ok && rpc.ok) return;
      await sleep(50);
    }
    throw new Error('PostgREST never saw public.fast_path_items and public.fast_path_echo');
  });

  // Other suites share this database and check every table in public (RLS coverage, advisors).
  afterAll(async () => {
    await pair?.close();
    const client = new pg.Client({ connectionString: backend().dbUrl });
    await client.connect();
    await client.query('drop table if exists public.fast_path_items');
    await client.query('drop function if exists public.fast_path_echo(jsonb)');
    await client.end();
  });

  it('serves REST reads itself, keeping the connection alive', async () => {
    const before = pair.handedOver();
    const { answers, closed } = await differential(
      pair,
      [
        get('/rest/v1/fast_path_items?select=id,title&order=id.desc&limit=3&title=like.item*'),
        { wait: 150 },
        get(
          '/rest/v1/fast_path_items?select=id&id=in.(1,2,3)',
          'Accept: application/vnd.pgrst.object+json\r\n',
        ),
        { wait: 150 },
        `HEAD /rest/v1/fast_path_items?select=id HTTP/1.1\r\nhost: localhost\r\nAPIKEY: ${key}\r\nPrefer: count=exact\r\nRange-Unit: items\r\nRange: 0-9\r\n\r\n`,
        { wait: 150 },
        get('/rest/v1/no_such_table'),
        { wait: 150 },
        get('/rest/v1/fast_path_items?id=eq.not-a-number'),
        { wait: 150 },
        get(
          '/rest/v1/fast_path_items?select=id&id=eq.7',
          'Accept: text/csv\r\nConnection: keep-alive\r\nOrigin: http://localhost:3000\r\n',
        ),
      ],
      ['GET', 'GET', 'HEAD', 'GET', 'GET', 'GET'],
    );
    expect(answers.map((a) => a.status)).toEqual([
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
    for (const answer of answers) expect(answer.headers).toContain('Access-Control-Allow-Origin: *');
    expect(closed).toBe(false);
    // None of those reached node:http on the fast gateway.
    expect(pair.handedOver()).toBe(before);
  });

  it('serves REST calls and writes whose body came with the head, keeping the connection alive', async () => {
    const send = (method: string, target: string, body: string, headers = '') =>
      `${method} ${target} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const before = pair.handedOver();
    const { answers, closed } = await differential(
      pair,
      [
        // Content-Length counts bytes: "é" and "✓" are two and three.
        Buffer.from(send('POST', '/rest/v1/rpc/fast_path_echo', '{"x":{"word":"café ✓","n":[1,2]}}')),
        { wait: 150 },
        send('POST', '/rest/v1/rpc/fast_path_echo', ''),
        { wait: 150 },
        send('POST', '/rest/v1/rpc/fast_path_echo', '{"x":'),
        { wait: 150 },
        send(
          'POST',
          '/rest/v1/fast_path_items',
          '{"id":1000,"title":"no"}',
          'Prefer: return=representation\r\n',
        ),
        { wait: 150 },
        send(
          'PATCH',
          '/rest/v1/fast_path_items?id=eq.1',
          '{"title":"changed"}',
          'Prefer: return=representation\r\n',
        ),
        { wait: 150 },
        send('POST', '/rest/v1/rpc/no_such_function', '{}', 'Origin: http://localhost:3000\r\n'),
      ],
      ['POST', 'POST', 'POST', 'POST', 'PATCH', 'POST'],
    );
    expect(answers.map((a) => a.status)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 400 Bad Request',
      'HTTP/1.1 401 Unauthorized',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 404 Not Found',
    ]);
    expect(JSON.parse(Buffer.from(answers[0]!.body, 'latin1').toString('utf8'))).toEqual({
      x: { word: 'café ✓', n: [1, 2] },
    });
    expect(JSON.parse(answers[1]!.body)).toEqual({ x: null });
    // Row-level security: anon may read the items but not add or change them.
    expect(JSON.parse(answers[4]!.body)).toEqual([]);
    for (const answer of answers) expect(answer.headers).toContain('Access-Control-Allow-Origin: *');
    expect(closed).toBe(false);
    expect(pair.handedOver()).toBe(before);
  });

  it('answers the key from the query string, the root, and a large chunked body', async () => {
    const before = pair.handedOver();
    const { answers } = await differential(
      pair,
      [
        `GET /rest/v1/fast_path_items?select=title&apikey=${key} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
        { wait: 150 },
        get('/rest/v1/'),
        { wait: 150 },
        get('/rest/v1'),
      ],
      ['GET', 'GET', 'GET'],
    );
    // PostgREST takes the query's `apikey` for a filter (which it cannot parse).
    expect(answers.map((a) => a.status)).toEqual([
      'HTTP/1.1 400 Bad Request',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
    ]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ code: 'PGRST100' });
    expect(answers[1]!.body.length).toBeGreaterThan(1000); // the OpenAPI description
    expect(pair.handedOver()).toBe(before);
  });

  it('hands over missing and unknown keys, preflights, bodies and the other services', async () => {
    const post = (path: string, body: string, extra = '') =>
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;
    const cases: Array<[Step[], string[], string]> = [
      [
        [`GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\n\r\n`],
        ['GET'],
        'HTTP/1.1 401 Unauthorized',
      ],
      [
        [`GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\napikey: forged\r\n\r\n`],
        ['GET'],
        'HTTP/1.1 401 Unauthorized',
      ],
      [
        [`GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\napikey:\r\n\r\n`],
        ['GET'],
        'HTTP/1.1 401 Unauthorized',
      ],
      [
        [
          `GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\napikey: ${key}\r\n\r\n`,
        ],
        ['GET'],
        'HTTP/1.1 401 Unauthorized',
      ],
      [
        [
          'OPTIONS /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost:3000\r\n' +
            'Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: apikey, prefer\r\n\r\n',
        ],
        ['OPTIONS'],
        'HTTP/1.1 200 OK',
      ],
      [
        [`${post('/rest/v1/fast_path_items', '{"id":1000,"title":"no"}').replace(/apikey: [^\r]*\r\n/, '')}`],
        ['POST'],
        'HTTP/1.1 401 Unauthorized',
      ],
      [[post('/auth/v1/token?grant_type=password', '{"email":"a@b.c"}')], ['POST'], 'HTTP/1.1 200 OK'],
      [[get('/auth/v1/settings')], ['GET'], 'HTTP/1.1 200 OK'],
      [[get('/storage/v1/bucket?limit=2')], ['GET'], 'HTTP/1.1 200 OK'],
      [
        [`GET /storage/v1/object/public/b/x.png HTTP/1.1\r\nHost: localhost\r\n\r\n`],
        ['GET'],
        'HTTP/1.1 200 OK',
      ],
      [[get('/functions/v1/hello')], ['GET'], 'HTTP/1.1 404 Not Found'],
      [[get('/nothing/here')], ['GET'], 'HTTP/1.1 404 Not Found'],
      [[get('/rest/v2/fast_path_items')], ['GET'], 'HTTP/1.1 404 Not Found'],
      [[get('/rest/v1x/fast_path_items')], ['GET'], 'HTTP/1.1 404 Not Found'],
    ];
    for (const [steps, methods, status] of cases) {
      const before = pair.handedOver();
      const { answers } = await differential(pair, steps, methods);
      expect(
        answers.map((a) => a.status),
        String(steps[0]),
      ).toEqual([status]);
      expect(pair.handedOver(), String(steps[0])).toBe(before + 1);
    }
  });

  it('hands over a websocket upgrade with the bytes after its head', async () => {
    const { answers, rest } = await differential(
      pair,
      [
        `GET /realtime/v1/websocket?apikey=${key}&vsn=1.0.0 HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n` +
          'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\nfirst-frame',
      ],
      ['GET'],
    );
    expect(answers.map((a) => a.status)).toEqual(['HTTP/1.1 101 Switching Protocols']);
    expect(rest).toBe('upgraded /websocket first-frame');
    // An upgrade to the REST path is not the fast path's either.
    const refused = await differential(
      pair,
      [get('/rest/v1/fast_path_items', 'Connection: Upgrade\r\nUpgrade: websocket\r\n')],
      ['GET'],
    );
    expect(refused.answers.map((a) => a.status)).toEqual(['HTTP/1.1 404 Not Found']);
  });

  it('hands over pipelined requests, and keeps their order', async () => {
    const { answers } = await differential(
      pair,
      [
        get('/rest/v1/fast_path_items?id=eq.1') +
          get('/auth/v1/health') +
          get('/rest/v1/fast_path_items?id=eq.2'),
      ],
      ['GET', 'GET', 'GET'],
    );
    expect(answers.map((a) => a.body)).toEqual([
      '[{"id":1,"title":"item 1"}]',
      expect.stringContaining('"service":"auth"'),
      '[{"id":2,"title":"item 2"}]',
    ]);
  });

  it('answers a request sent before the previous answer after it, in order', async () => {
    // A PostgREST stand-in that takes its time, so that the next requests come while it works.
    const slowUpstream = http.createServer((req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ url: req.url }));
      }, 100);
    });
    const slowPair = await gatewayPair(await listen(slowUpstream));
    try {
      const before = slowPair.handedOver();
      const { answers } = await differential(
        slowPair,
        [
          get('/rest/v1/a'),
          { wait: 20 },
          get('/rest/v1/b'),
          { wait: 20 },
          `POST /auth/v1/c HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Length: 5\r\n\r\nhello`,
          { wait: 20 },
          get('/rest/v1/d'),
        ],
        ['GET', 'GET', 'POST', 'GET'],
      );
      expect(answers.map((a) => a.body)).toEqual([
        '{"url":"/a"}',
        '{"url":"/b"}',
        expect.stringContaining('"body":"hello"'),
        '{"url":"/d"}',
      ]);
      // The first two on the fast path, the POST and what came after it on node:http.
      expect(slowPair.handedOver()).toBe(before + 2);
    } finally {
      await slowPair.close();
      slowUpstream.close();
    }
  });

  it('answers heads PostgREST would not write, framed every way, as node:http does', async () => {
    // A stand-in that writes its heads by hand: spacing, case and framing node:http would not use,
    // a header the gateway drops, a CORS header it replaces, and one value node:http refuses.
    const heads: Record<string, string> = {
      '/spaced':
        'HTTP/1.1 200 OK\r\nx-odd:   padded  \r\ncontent-length:2\r\nDATE: Tue, 01 Jan 2030 00:00:00 GMT\r\n\r\nok',
      '/chunked':
        'HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nAccess-Control-Allow-Origin: https://elsewhere.test\r\nKeep-Alive: timeout=5\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
      '/close': 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nuntil the end',
      '/empty-value': 'HTTP/1.1 204 No Content\r\nX-Empty: \r\nX-Trailing-Tab: a\t\r\n\r\n',
      '/refused': 'HTTP/1.1 200 OK\r\nX-Bad: a\x01b\r\nContent-Length: 2\r\n\r\nno',
    };
    const upstream = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.on('data', (data: Buffer) => {
        const path = /^GET (\S+)/.exec(data.toString('latin1'))?.[1] ?? '';
        const answer = heads[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n';
        socket.write(answer, 'latin1');
        if (path === '/close') socket.end();
      });
    });
    const oddPair = await gatewayPair(await listen(upstream));
    try {
      const before = oddPair.handedOver();
      for (const path of Object.keys(heads)) {
        const { answers } = await differential(oddPair, [get(`/rest/v1${path}`)], ['GET']);
        expect(answers).toHaveLength(1);
      }
      const spaced = await differential(oddPair, [get('/rest/v1/spaced')], ['GET']);
      expect(spaced.answers[0]?.headers).toContain('x-odd: padded');
      expect(spaced.answers[0]?.body).toBe('ok');
      const chunked = await differential(oddPair, [get('/rest/v1/chunked')], ['GET']);
      expect(chunked.answers[0]?.headers).toContain('Access-Control-Allow-Origin: *');
      expect(chunked.answers[0]?.headers.join('\n')).not.toContain('elsewhere');
      expect(chunked.answers[0]?.body).toBe('abc');
      const refused = await differential(oddPair, [get('/rest/v1/refused')], ['GET']);
      expect(refused.answers[0]?.status).toBe('HTTP/1.1 502 Bad Gateway');
      expect(oddPair.handedOver()).toBe(before);
    } finally {
      await oddPair.close();
      upstream.close();
    }
  });

  it('streams a large body to a client that reads slowly, whole and in order', async () => {
    const size = 8 * 1024 * 1024;
    const body = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) body.writeUInt32BE(i, i);
    const upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(body);
    });
    const bigPair = await gatewayPair(await listen(upstream));
    try {
      const socket = net.connect({ port: bigPair.fast, host: '127.0.0.1' });
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.pause();
      socket.write(get('/rest/v1/big'));
      // Nothing is read for a while: the gateway must hold PostgREST back, not lose bytes.
      await sleep(500);
      const chunks: Buffer[] = [];
      const done = new Promise<void>((resolve) => {
        socket.on('data', (d: Buffer) => {
          chunks.push(d);
          const text = Buffer.concat(chunks);
          if (text.subarray(-5).toString('latin1') === '0\r\n\r\n') resolve();
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
      await bigPair.close();
      upstream.close();
    }
  }, 30_000);

  it('hands over a request cut across TCP reads, and then stays with node:http', async () => {
    const request = get('/rest/v1/fast_path_items?id=eq.5');
    const before = pair.handedOver();
    const { answers } = await differential(
      pair,
      [
        request.slice(0, 10),
        { wait: 30 },
        request.slice(10, 40),
        { wait: 30 },
        request.slice(40),
        { wait: 150 },
        request,
      ],
      ['GET', 'GET'],
    );
    expect(answers.map((a) => a.body)).toEqual([
      '[{"id":5,"title":"item 5"}]',
      '[{"id":5,"title":"item 5"}]',
    ]);
    expect(pair.handedOver()).toBe(before + 2);
    // A request after some on the fast path, with its body in the next read: node:http gets both.
    const { answers: later } = await differential(
      pair,
      [
        request,
        { wait: 150 },
        `POST /storage/v1/object/b/x HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Length: 6\r\n\r\n`,
        { wait: 30 },
        'body!!',
        { wait: 150 },
        request,
      ],
      ['GET', 'POST', 'GET'],
    );
    expect(later.map((a) => a.status)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    expect(JSON.parse(later[1]!.body)).toMatchObject({ service: 'storage', body: 'body!!' });
  });

  it('honours Connection: close and a client that ends its side', async () => {
    const closing = await differential(
      pair,
      [get('/rest/v1/fast_path_items?id=eq.6', 'Connection: close\r\n')],
      ['GET'],
    );
    expect(closing.closed).toBe(true);
    expect(closing.answers[0]!.headers).toContain('Connection: close');
    // node:http does not answer a request whose client ended its side (the gateway does not allow
    // half-open connections), nor does the fast path.
    const halfClosed = await differential(pair, [get('/rest/v1/fast_path_items?id=eq.6'), 'end'], ['GET']);
    expect(halfClosed.closed).toBe(true);
    // An answer that was out before the end, was.
    const answeredFirst = await differential(
      pair,
      [get('/rest/v1/fast_path_items?id=eq.6'), { wait: 150 }, 'end'],
      ['GET'],
    );
    expect(answeredFirst.closed).toBe(true);
    expect(answeredFirst.answers.map((a) => a.body)).toEqual(['[{"id":6,"title":"item 6"}]']);
  });

  it('leaves bad and unusual requests to node:http', async () => {
    const rpc = (body: string, headers: string) =>
      `POST /rest/v1/rpc/fast_path_echo HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
    const unusual: Step[][] = [
      ['GARBAGE\r\n\r\n'],
      ['GET /rest/v1/fast_path_items HTTP/1.1\r\n\r\n'], // no Host
      [`GET /rest/v1/fast_path_items HTTP/1.0\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`],
      [`get /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`],
      [`GET /rest/v1/fast_path_items HTTP/1.1\nHost: localhost\napikey: ${key}\n\n`],
      [
        `GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nX-Folded: a\r\n b\r\n\r\n`,
      ],
      [
        `GET /rest/v1/fast_path_items?title=eq."item 1" HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`,
      ],
      [`GET /rest/v1/fast_path_items?title=eq.{x}|"y" HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`],
      [`GET /rest/v1/fast_path_items?title=eq.\u00e9 HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`],
      [
        `GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nX-Bad: a\u0001b\r\n\r\n`,
      ],
      [`GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: localhost\r\napikey : ${key}\r\n\r\n`],
      [`GET /rest/v1/fast_path_items HTTP/1.1\r\nHost: a\r\nHost: b\r\napikey: ${key}\r\n\r\n`],
      [get('/rest/v1/fast_path_items?id=eq.8', 'Expect: 100-continue\r\n')],
      [get('/rest/v1/fast_path_items?id=eq.8', 'Content-Length: 0\r\n')],
      [get('/rest/v1/fast_path_items?id=eq.8', 'Content-Length: 4\r\n') + 'abcd'],
      [get('/rest/v1/fast_path_items?id=eq.8', 'Transfer-Encoding: chunked\r\n') + '4\r\nabcd\r\n0\r\n\r\n'],
      [get('/rest/v1/fast_path_items?id=eq.8', 'Connection: keep-alive, TE\r\nTE: trailers\r\n')],
      [get('/rest/v1/fast_path_items?id=eq.8', `X-Long: ${'x'.repeat(9000)}\r\n`)],
      [get('/rest/v1/fast_path_items?id=eq.8', `X-Huge: ${'x'.repeat(20000)}\r\n`)],
      // Bodies the fast path leaves to node:http: framed another way, or not whole in the read.
      [rpc('{}', 'Content-Length: 2\r\nContent-Length: 2\r\n')],
      [rpc('{}', 'Content-Length: 02\r\n')],
      [rpc('{}', 'Content-Length: +2\r\n')],
      [rpc('{}', 'Content-Length: 2, 2\r\n')],
      [rpc('{}', 'Transfer-Encoding: chunked\r\n').replace('\r\n\r\n{}', '\r\n\r\n2\r\n{}\r\n0\r\n\r\n')],
      [rpc('{}', 'Content-Length: 2\r\nExpect: 100-continue\r\n')],
      [rpc('{}', '')], // no length: node:http reads no body
      [rpc('{"x":1}', 'Content-Length: 7\r\n').slice(0, -3), { wait: 50 }, ':1}'],
      [rpc(`{"x":"${'y'.repeat(17_000)}"}`, `Content-Length: ${17_000 + 8}\r\n`)],
      [`DELETE /rest/v1/fast_path_items?id=eq.999 HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\n\r\n`],
    ];
    for (const steps of unusual) {
      const before = pair.handedOver();
      // node:http answers `Expect: 100-continue` with a 100 first.
      const method = String(steps[0]).split(' ')[0] ?? 'GET';
      const methods = String(steps[0]).includes('Expect:') ? [method, method] : [method];
      const { answers } = await differential(pair, steps, methods);
      expect(answers.length, String(steps[0]).slice(0, 80)).toBe(methods.length);
      // Each reached node:http, or was refused by its parser (400, 431, …) before a request existed.
      expect(pair.handedOver() - before === 1 || answers[0]!.status.startsWith('HTTP/1.1 4')).toBe(true);
    }
  });

  it('answers 502 as node:http does when PostgREST cannot be reached', async () => {
    const closed = net.createServer();
    const port = await listen(closed as unknown as http.Server);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await gatewayPair(port);
    try {
      const before = down.handedOver();
      const { answers } = await differential(
        down,
        [
          get('/rest/v1/fast_path_items'),
          { wait: 150 },
          `HEAD /rest/v1/x HTTP/1.1\r\nHost: l\r\napikey: ${key}\r\n\r\n`,
        ],
        ['GET', 'HEAD'],
      );
      expect(answers.map((a) => a.status)).toEqual(['HTTP/1.1 502 Bad Gateway', 'HTTP/1.1 502 Bad Gateway']);
      expect(JSON.parse(answers[0]!.body)).toEqual({
        message: 'An invalid response was received from the upstream server',
      });
      expect(down.handedOver()).toBe(before);
    } finally {
      await down.close();
    }
  });

  it('closes idle fast-path connections when the server closes', async () => {
    const gateway = createGateway({
      apiKeys: [key],
      auth: echo('auth'),
      storage: echo('storage'),
      realtime: { handle: echo('realtime'), upgrade: (_req, socket) => socket.destroy() },
      postgrestPort: Number(new URL(backend().postgrestUrl).port),
    });
    const port = await listen(gateway);
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.on('error', () => {});
    const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(get('/rest/v1/fast_path_items?id=eq.9'));
    await answered;
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const t0 = performance.now();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
    await socketClosed;
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
