// Invalid input is the client's fault, so it is answered with a 4xx and never a 5xx:
// every auth and storage endpoint gets each of the bad values below in each of its fields, path
// segments and query parameters, and not one answer may be 500 or more. GoTrue and storage-api answer
// such input with 400 (validation or JSON decoding errors); a 500 here means a bad value reached a
// query or a parser unchecked.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient, backend, confirmedUser, testIp } from '../tests/support/backend.ts';

/** Raw JSON texts, so that values JSON.stringify cannot make (1e400, -0) are sent too. */
const BAD_VALUES: string[] = [
  '"\\u0000"',
  '"a\\u0000b@example.test"',
  '"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"',
  '""',
  '"   "',
  JSON.stringify('x'.repeat(20_000)),
  '"%00"',
  '"../../../etc/passwd"',
  `"'; drop table auth.users; --"`,
  '"\\ud800"',
  '"\\u202e\\ud83d\\ude00\\n\\r\\t\\\\"',
  '"<script>alert(1)</script>"',
  '"-1"',
  '"99999999999999999999"',
  '"__proto__"',
  '"toString"',
  '0',
  '-1',
  '1e400',
  '99999999999999999999',
  '3.5',
  'true',
  'null',
  '[]',
  '["\\u0000", 1]',
  '{}',
  '{"__proto__": {"polluted": true}, "a": "\\u0000"}',
];

const BAD_QUERY_VALUES = [
  '\u0000',
  'a\u0000b',
  '',
  '-1',
  '0',
  '99999999999999999999',
  '1e400',
  'NaN',
  'x'.repeat(5000),
  '../..',
  "' or 1=1 --",
  '\ud83d\ude00',
  '%',
  '[]',
  'true',
  '__proto__',
  '-0',
  '0x10',
  ' 1',
  '1.5',
];

const BAD_SEGMENTS = [
  '%00',
  'a%00b',
  '%ZZ',
  '..',
  '%2e%2e',
  encodeURIComponent('x'.repeat(2000)),
  '-1',
  '99999999999999999999',
  encodeURIComponent("' or 1=1 --"),
  '%F0%9F%98%80',
  '%C0%AF',
  '%ED%A0%80',
  '00000000-0000-0000-0000-000000000000',
  encodeURIComponent('\u202e'),
  '%20',
  'a%2Fb',
  '__proto__',
  'null',
  '%0A',
  '%7B%7D',
];

interface Endpoint {
  method: string;
  path: string;
  /** Body fields (each replaced by every bad value in turn, the rest kept valid). */
  fields?: Record<string, unknown>;
  /** Query parameters (each replaced by every bad query value). */
  query?: Record<string, string>;
  /** Path segments written as {name} in `path`, each replaced by every bad segment. */
  segments?: Record<string, string>;
  token?: 'user' | 'service';
}

const JWT_SECRET = new TextEncoder().encode('super-secret-jwt-token-with-at-least-32-characters-long');
let signedBadTokens: string[] | undefined;

/**
 * Bearer tokens that are not what they claim: malformed, unsigned, and signed with the project's
 * (public, local) secret but carrying claims of the wrong type or value, which GoTrue and
 * storage-api read as they are.
 */
async function badTokens(): Promise<string[]> {
  if (!signedBadTokens) {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const sign = (claims: Record<string, unknown>) =>
      new jose.SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(JWT_SECRET);
    signedBadTokens = await Promise.all([
      sign({ role: 'authenticated', sub: '\u0000', exp }),
      sign({ role: 'authenticated', sub: 'not-a-uuid', exp }),
      sign({ role: 'authenticated', sub: 42, exp }),
      sign({ role: 'authenticated', sub: randomUUID(), exp, session_id: 'x\u0000' }),
      sign({ role: 'authenticated', sub: randomUUID(), exp, session_id: randomUUID(), aal: {} }),
      sign({ role: 42, sub: randomUUID(), exp }),
      sign({ role: 'authenticated', sub: randomUUID(), exp: 'tomorrow' }),
      sign({ role: 'authenticated', sub: randomUUID(), exp: 1 }),
      sign({ role: 'supabase_admin', sub: randomUUID(), exp }),
      sign({ role: 'authenticated', sub: randomUUID(), exp, is_anonymous: 'yes', amr: 'x' }),
      sign({ role: 'authenticated', sub: randomUUID(), exp, app_metadata: [], user_metadata: 'x' }),
    ]);
  }
  return [
    '',
    'x',
    'a.b.c',
    '...',
    'eyJhbGciOiJub25lIn0.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.',
    'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln',
    `${'e'.repeat(6000)}.${'e'.repeat(6000)}.x`,
    '%00',
    'null',
    ...signedBadTokens,
  ];
}

interface Answer {
  status: number;
  text: string;
}

const failures: string[] = [];
let requests = 0;

async function send(
  service: 'auth' | 'storage',
  endpoint: Endpoint,
  path: string,
  query: Record<string, string>,
  body: string | undefined,
  tokens: { user: string; service: string },
  bearerOverride?: string,
): Promise<Answer> {
  const { apiUrl, anonKey } = backend();
  const search = new URLSearchParams(query).toString();
  const url = `${apiUrl}/${service}/v1${path}${search ? `?${search}` : ''}`;
  const bearer = bearerOverride ?? (endpoint.token ? tokens[endpoint.token] : anonKey);
  const res = await fetch(url, {
    method: endpoint.method,
    redirect: 'manual',
    headers: {
      apikey: anonKey,
      Authorization: `Bearer ${bearer}`,
      'X-Forwarded-For': testIp(),
      'X-Supabase-Api-Version': '2024-01-01',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body,
  });
  requests += 1;
  const text = await res.text();
  if (res.status >= 500) {
    failures.push(
      `${endpoint.method} /${service}/v1${path}${search ? `?${search}` : ''} ${body ?? ''}`.slice(0, 300) +
        ` → ${res.status} ${text.slice(0, 200)}`,
    );
  }
  return { status: res.status, text };
}

function fill(path: string, segments: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => segments[name] ?? '');
}

function rawBody(fields: Record<string, unknown>, key: string, raw: string): string {
  const parts = Object.entries(fields).map(([k, v]) =>
    k === key ? `${JSON.stringify(k)}:${raw}` : `${JSON.stringify(k)}:${JSON.stringify(v)}`,
  );
  return `{${parts.join(',')}}`;
}

async function fuzz(
  service: 'auth' | 'storage',
  endpoints: Endpoint[],
  tokens: { user: string; service: string },
) {
  for (const endpoint of endpoints) {
    const segments = endpoint.segments ?? {};
    const query = endpoint.query ?? {};
    const fields = endpoint.fields;
    const path = fill(endpoint.path, segments);
    const body = fields ? JSON.stringify(fields) : undefined;
    for (const key of Object.keys(fields ?? {})) {
      for (const raw of BAD_VALUES) {
        await send(service, endpoint, path, query, rawBody(fields ?? {}, key, raw), tokens);
      }
    }
    for (const key of Object.keys(query)) {
      for (const value of BAD_QUERY_VALUES) {
        await send(service, endpoint, path, { ...query, [key]: value }, body, tokens);
      }
    }
    for (const key of Object.keys(segments)) {
      for (const value of BAD_SEGMENTS) {
        await send(
          service,
          endpoint,
          fill(endpoint.path, { ...segments, [key]: value }),
          query,
          body,
          tokens,
        );
      }
    }
    for (const bearer of await badTokens()) {
      await send(service, endpoint, path, query, body, tokens, bearer);
    }
    if (fields) {
      for (const raw of ['{', '[]', '"x"', '{"a":1,}', '\u0000', '{"email": "\\u0000', 'null']) {
        await send(service, endpoint, path, query, raw, tokens);
      }
    }
  }
}

let tokens = { user: '', service: '' };
let bucket = '';
const object = `fuzz/${randomUUID()}.txt`;

beforeAll(async () => {
  const user = await confirmedUser('fuzz');
  const client = anonClient();
  const { data, error } = await client.auth.signInWithPassword({
    email: user.email,
    password: user.password,
  });
  if (error || !data.session) throw error ?? new Error('no session');
  tokens = { user: data.session.access_token, service: backend().serviceRoleKey };
  bucket = `fuzz-${randomUUID().slice(0, 8)}`;
  const made = await adminClient().storage.createBucket(bucket, { public: true });
  if (made.error) throw made.error;
  const uploaded = await adminClient().storage.from(bucket).upload(object, 'hello');
  if (uploaded.error) throw uploaded.error;
});

afterAll(async () => {
  await adminClient().storage.emptyBucket(bucket);
  await adminClient().storage.deleteBucket(bucket);
});

describe('invalid input', () => {
  it('answers every bad value sent to every auth endpoint without a 5xx', async () => {
    const email = { email: 'fuzz@example.test', password: 'a-good-password-1' };
    const pkce = { code_challenge: 'x'.repeat(43), code_challenge_method: 's256' };
    const userId = randomUUID();
    await fuzz(
      'auth',
      [
        { method: 'POST', path: '/signup', fields: { ...email, data: { a: 1 }, ...pkce } },
        { method: 'POST', path: '/token', query: { grant_type: 'password' }, fields: email },
        {
          method: 'POST',
          path: '/token',
          query: { grant_type: 'refresh_token' },
          fields: { refresh_token: 'abc' },
        },
        {
          method: 'POST',
          path: '/token',
          query: { grant_type: 'pkce' },
          fields: { auth_code: randomUUID(), code_verifier: 'y'.repeat(43) },
        },
        {
          method: 'POST',
          path: '/otp',
          fields: { email: email.email, create_user: false, data: {}, ...pkce },
        },
        { method: 'POST', path: '/magiclink', fields: { email: email.email } },
        {
          method: 'GET',
          path: '/verify',
          query: { type: 'signup', token: 'abc', redirect_to: 'http://localhost:3000' },
        },
        { method: 'POST', path: '/verify', fields: { type: 'email', email: email.email, token: '123456' } },
        {
          method: 'POST',
          path: '/verify',
          fields: { type: 'email_change', email: email.email, token: '123456' },
        },
        { method: 'POST', path: '/verify', fields: { type: 'magiclink', token_hash: 'abc' } },
        { method: 'POST', path: '/resend', fields: { type: 'signup', email: email.email, ...pkce } },
        { method: 'POST', path: '/recover', fields: { email: email.email, ...pkce } },
        { method: 'GET', path: '/user', token: 'user' },
        {
          method: 'PUT',
          path: '/user',
          token: 'user',
          fields: { email: 'x', password: 'y', data: {}, nonce: '', ...pkce },
        },
        { method: 'GET', path: '/reauthenticate', token: 'user' },
        {
          method: 'POST',
          path: '/factors',
          token: 'user',
          fields: { factor_type: 'totp', friendly_name: 'x', issuer: 'y' },
        },
        {
          method: 'POST',
          path: '/factors/{id}/challenge',
          token: 'user',
          segments: { id: randomUUID() },
          fields: { channel: 'sms' },
        },
        {
          method: 'POST',
          path: '/factors/{id}/verify',
          token: 'user',
          segments: { id: randomUUID() },
          fields: { challenge_id: randomUUID(), code: '123456' },
        },
        { method: 'DELETE', path: '/factors/{id}', token: 'user', segments: { id: randomUUID() } },
        { method: 'GET', path: '/admin/users', token: 'service', query: { page: '1', per_page: '2' } },
        {
          method: 'POST',
          path: '/admin/users',
          token: 'service',
          fields: {
            ...email,
            email_confirm: true,
            user_metadata: {},
            app_metadata: {},
            ban_duration: '1h',
            role: 'x',
          },
        },
        { method: 'GET', path: '/admin/users/{id}', token: 'service', segments: { id: userId } },
        {
          method: 'PUT',
          path: '/admin/users/{id}',
          token: 'service',
          segments: { id: userId },
          fields: { email: 'x@example.test', ban_duration: 'none', user_metadata: {} },
        },
        {
          method: 'DELETE',
          path: '/admin/users/{id}',
          token: 'service',
          segments: { id: userId },
          fields: { should_soft_delete: false },
        },
        { method: 'GET', path: '/admin/users/{id}/factors', token: 'service', segments: { id: userId } },
        {
          method: 'DELETE',
          path: '/admin/users/{id}/factors/{factor}',
          token: 'service',
          segments: { id: userId, factor: randomUUID() },
        },
        {
          method: 'POST',
          path: '/admin/generate_link',
          token: 'service',
          fields: {
            type: 'magiclink',
            email: email.email,
            new_email: '',
            password: '',
            data: {},
            redirect_to: '',
          },
        },
        { method: 'POST', path: '/invite', token: 'service', fields: { email: email.email, data: {} } },
        // Last: a sign-out ends the session the endpoints above use.
        { method: 'POST', path: '/logout', query: { scope: 'local' }, token: 'user' },
      ],
      tokens,
    );
    expect(requests).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
  }, 300_000);

  it('answers every bad value sent to every storage endpoint without a 5xx', async () => {
    failures.length = 0;
    requests = 0;
    const b = { bucket };
    const o = { bucket, name: object };
    await fuzz(
      'storage',
      [
        { method: 'GET', path: '/bucket', token: 'service' },
        {
          method: 'POST',
          path: '/bucket',
          token: 'service',
          fields: { id: 'x', name: 'x', public: false, file_size_limit: 10, allowed_mime_types: ['a/b'] },
        },
        { method: 'GET', path: '/bucket/{bucket}', token: 'service', segments: b },
        {
          method: 'PUT',
          path: '/bucket/{bucket}',
          token: 'service',
          segments: b,
          fields: { public: true, file_size_limit: 1000, allowed_mime_types: null },
        },
        { method: 'DELETE', path: '/bucket/{bucket}', token: 'user', segments: b },
        { method: 'POST', path: '/bucket/{bucket}/empty', token: 'user', segments: b },
        {
          method: 'POST',
          path: '/object/list/{bucket}',
          token: 'service',
          segments: b,
          fields: {
            prefix: 'fuzz',
            search: 'a',
            limit: 10,
            offset: 0,
            sortBy: { column: 'name', order: 'asc' },
          },
        },
        {
          method: 'POST',
          path: '/object/list-v2/{bucket}',
          token: 'service',
          segments: b,
          fields: {
            prefix: 'fuzz/',
            cursor: '',
            with_delimiter: true,
            limit: 10,
            sortBy: { column: 'name', order: 'asc' },
          },
        },
        {
          method: 'POST',
          path: '/object/move',
          token: 'user',
          fields: { bucketId: bucket, sourceKey: object, destinationKey: 'x/y', destinationBucket: bucket },
        },
        {
          method: 'POST',
          path: '/object/copy',
          token: 'user',
          fields: { bucketId: bucket, sourceKey: object, destinationKey: 'x/y', destinationBucket: bucket },
        },
        {
          method: 'POST',
          path: '/object/sign/{bucket}',
          token: 'service',
          segments: b,
          fields: { expiresIn: 60, paths: [object] },
        },
        {
          method: 'POST',
          path: '/object/sign/{bucket}/{name}',
          token: 'service',
          segments: o,
          fields: { expiresIn: 60, transform: {}, download: false },
        },
        {
          method: 'GET',
          path: '/object/sign/{bucket}/{name}',
          segments: o,
          query: { token: 'abc', download: '' },
        },
        { method: 'POST', path: '/object/upload/sign/{bucket}/{name}', token: 'user', segments: o },
        { method: 'PUT', path: '/object/upload/sign/{bucket}/{name}', segments: o, query: { token: 'abc' } },
        { method: 'GET', path: '/object/public/{bucket}/{name}', segments: o, query: { download: 'x' } },
        { method: 'GET', path: '/object/info/public/{bucket}/{name}', segments: o },
        { method: 'GET', path: '/object/info/authenticated/{bucket}/{name}', token: 'user', segments: o },
        { method: 'GET', path: '/object/info/{bucket}/{name}', token: 'user', segments: o },
        { method: 'GET', path: '/object/authenticated/{bucket}/{name}', token: 'user', segments: o },
        {
          method: 'GET',
          path: '/object/{bucket}/{name}',
          token: 'user',
          segments: o,
          query: { download: '' },
        },
        {
          method: 'DELETE',
          path: '/object/{bucket}',
          token: 'user',
          segments: b,
          fields: { prefixes: [object] },
        },
        { method: 'DELETE', path: '/object/{bucket}/{name}', token: 'user', segments: o },
        {
          method: 'POST',
          path: '/object/{bucket}/{name}',
          token: 'user',
          segments: o,
          fields: { metadata: {} },
        },
      ],
      tokens,
    );
    expect(requests).toBeGreaterThan(1500);
    expect(failures).toEqual([]);
  }, 300_000);

  it('answers the values an outside review sent with the 400 GoTrue and storage-api give', async () => {
    const auth = (path: string, init: RequestInit = {}) =>
      fetch(`${backend().apiUrl}/auth/v1${path}`, {
        ...init,
        redirect: 'manual',
        headers: {
          apikey: backend().anonKey,
          Authorization: `Bearer ${backend().serviceRoleKey}`,
          'Content-Type': 'application/json',
          'X-Forwarded-For': testIp(),
          'X-Supabase-Api-Version': '2024-01-01',
        },
      });
    const codeOf = async (res: Response) => ({
      status: res.status,
      code: ((await res.json()) as { code: string }).code,
    });
    const post = (path: string, body: string) => auth(path, { method: 'POST', body });
    expect(
      await codeOf(await post('/signup', '{"email":"a\\u0000@example.test","password":"a-good-password"}')),
    ).toEqual({
      status: 400,
      code: 'validation_failed',
    });
    expect(
      await codeOf(await post('/token?grant_type=refresh_token', '{"refresh_token":"ab\\u0000cd"}')),
    ).toEqual({
      status: 400,
      code: 'validation_failed',
    });
    expect(await codeOf(await post('/verify', '{"type":"magiclink","token_hash":"\\u0000"}'))).toEqual({
      status: 400,
      code: 'validation_failed',
    });
    expect(await codeOf(await post('/verify', '{"type":7,"token_hash":"abc"}'))).toEqual({
      status: 400,
      code: 'bad_json',
    });
    expect(await codeOf(await auth('/verify?type=signup&token=%00'))).toEqual({
      status: 400,
      code: 'validation_failed',
    });
    // internal/api/pagination.go: strconv.ParseUint refuses a sign and anything past 2^64 - 1.
    for (const page of ['-1', '99999999999999999999', '1.5']) {
      const res = await auth(`/admin/users?page=${page}`);
      expect(await res.json()).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining('Bad Pagination Parameters'),
      });
      expect(res.status).toBe(400);
    }
    const far = await auth('/admin/users?page=18446744073709551615');
    expect(far.status).toBe(200);
    expect(((await far.json()) as { users: unknown[] }).users).toEqual([]);

    const storage = (path: string, body?: unknown) =>
      fetch(`${backend().apiUrl}/storage/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          apikey: backend().anonKey,
          Authorization: `Bearer ${backend().serviceRoleKey}`,
          'Content-Type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(await (await storage('/bucket/a%00b')).json()).toMatchObject({
      statusCode: '400',
      code: 'InvalidBucketName',
    });
    for (const body of [{ prefix: 'a\u0000' }, { prefix: '', search: '\u0000' }]) {
      const res = await storage(`/object/list/${bucket}`, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
    }
  });

  it('answers a multipart upload cut short with a 400, and the object is not stored', async () => {
    const { apiUrl, anonKey } = backend();
    const url = new URL(`${apiUrl}/storage/v1/object/${bucket}/cut-${randomUUID()}.txt`);
    const boundary = 'fuzzboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhalf a file`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\napikey: ${anonKey}\r\n` +
            `Authorization: Bearer ${backend().serviceRoleKey}\r\n` +
            `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length}\r\n` +
            `Connection: close\r\n\r\n${head}`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const name = url.pathname.split('/').pop() ?? '';
    const listed = await adminClient().storage.from(bucket).list('', { search: name });
    expect(listed.data).toEqual([]);
  });
});
