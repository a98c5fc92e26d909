import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChunks, stringToBase64URL } from '@supabase/ssr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadConfig } from '../env.server.ts';
import { cookieSession, getSupabase, rpcAsUser } from './supabase.server.ts';

let server: http.Server;
let base = '';
const seen: Array<{ method?: string; url?: string; body: string; headers: http.IncomingHttpHeaders }> = [];
const savedUrl = process.env.SUPABASE_URL;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, body, headers: req.headers });
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/rest/v1/rpc/page') res.end(JSON.stringify({ session: 'active', name: 'été' }));
      else if (req.url === '/rest/v1/rpc/status') res.end('"ended"');
      else if (req.url === '/rest/v1/rpc/nothing') res.writeHead(204).end();
      else if (req.url === '/rest/v1/rpc/broken') res.writeHead(502).end('Bad gateway');
      else
        res
          .writeHead(401)
          .end(JSON.stringify({ code: 'PGRST301', message: 'JWT expired', details: null, hint: null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SUPABASE_URL = base;
  reloadConfig();
});
afterAll(async () => {
  if (savedUrl === undefined) delete process.env.SUPABASE_URL;
  else process.env.SUPABASE_URL = savedUrl;
  reloadConfig();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('rpcAsUser', () => {
  it('sends what supabase-js rpc() sends, as the user, and answers its data', async () => {
    expect(await rpcAsUser('page', 'user-token')).toEqual({
      data: { session: 'active', name: 'été' },
      error: null,
    });
    const sent = seen.at(-1);
    expect(sent?.method).toBe('POST');
    expect(sent?.body).toBe('{}');
    expect(sent?.headers.authorization).toBe('Bearer user-token');
    expect(sent?.headers.apikey).toBeTruthy();
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['content-profile']).toBe('public');
    expect(await rpcAsUser('status', 'user-token')).toEqual({ data: 'ended', error: null });
    expect(await rpcAsUser('nothing', 'user-token')).toEqual({ data: null, error: null });
  });

  it("answers PostgREST's errors, and a backend that cannot be reached, as supabase-js does", async () => {
    expect(await rpcAsUser('other', 'old-token')).toEqual({
      data: null,
      error: { code: 'PGRST301', message: 'JWT expired', details: undefined, hint: undefined },
    });
    expect(await rpcAsUser('broken', 't')).toEqual({ data: null, error: { message: 'Bad gateway' } });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    process.env.SUPABASE_URL = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    reloadConfig();
    try {
      const { data, error } = await rpcAsUser('page', 't');
      expect(data).toBeNull();
      expect(error?.code).toBe('');
    } finally {
      process.env.SUPABASE_URL = base;
      reloadConfig();
    }
  });
});

describe('cookieSession', () => {
  it("reads the access token the request's Supabase client reads, from the same cookies", async () => {
    const stored = JSON.stringify({
      access_token: 'token-from-cookie',
      refresh_token: 'r',
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      expires_in: 3600,
      token_type: 'bearer',
      user: { id: 'u1', email: 'ada@example.test', user_metadata: { note: 'x'.repeat(5_000) } },
    });
    const cookies = createChunks('sb-127-auth-token', `base64-${stringToBase64URL(stored)}`);
    const request = new Request(`${base}/account`, {
      headers: {
        Cookie: cookies.map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join('; '),
      },
    });
    const context = {};
    const { data } = await getSupabase(request, context).supabase.auth.getSession();
    expect(data.session?.access_token).toBe('token-from-cookie');
    expect(cookieSession(request, context)).toMatchObject({ accessToken: 'token-from-cookie' });
    expect(cookieSession(new Request(`${base}/account`), {})).toBe('none');
  });
});
