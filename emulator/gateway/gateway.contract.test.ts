// The gateway as supabase-js and browsers meet it: keys, CORS, routing, PostgREST behind it with RLS,
// and bad input answered with the JSON errors the real services give.
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, backend, confirmedUser } from '../../tests/support/backend.ts';

describe('gateway', () => {
  it('requires an API key on REST and auth, and says which problem it has', async () => {
    const { apiUrl, anonKey } = backend();
    const missing = await fetch(`${apiUrl}/rest/v1/`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: 'No API key found in request' });
    const wrong = await fetch(`${apiUrl}/auth/v1/settings`, { headers: { apikey: 'forged' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'Invalid authentication credentials' });
    const viaQuery = await fetch(`${apiUrl}/auth/v1/settings?apikey=${anonKey}`);
    expect(viaQuery.status).toBe(200);
  });

  it('lets email links and the JWKS through without a key', async () => {
    const jwks = await fetch(`${backend().apiUrl}/auth/v1/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    const verify = await fetch(`${backend().apiUrl}/auth/v1/verify?token=x&type=signup`, {
      redirect: 'manual',
    });
    expect(verify.status).toBe(303);
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
