// The app's session handling, through its real request handler (the production build) against a
// backend whose access tokens are about to expire within seconds of being issued: refreshes happen once per request, parallel nested
// loaders share them, and the cookies carry the attributes SPEC section 2 asks for.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../emulator/backend.ts';
import { confirmedUser } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { projectRoot, startPrivateBackend } from '../support/private-backend.ts';
import { recordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';

const buildPath = path.join(projectRoot, 'build', 'index.js');
const origin = 'http://localhost:3000';

let backend: Backend;
let handle: (request: Request) => Promise<Response>;
let proxy: RecordingProxy;
/** Refresh-token grants the app has sent to the auth server, counted by the proxy in front of it. */
const refreshGrants = () =>
  proxy.requests.filter((r) => r.startsWith('POST /auth/v1/token?grant_type=refresh_token')).length;

beforeAll(async () => {
  if (!existsSync(buildPath))
    throw new Error('Run `npm run build` first: these tests drive the production build.');
  // auth-js refreshes a token with less than 90 s left (3 ticks of 30 s). 93-second tokens fall
  // inside that window 3 s after they are issued, and the refreshed one is outside it again.
  backend = await startPrivateBackend('session', {
    AUTH_JWT_EXPIRY: '93',
    AUTH_RATE_LIMIT_SIGN_IN: '100000',
    AUTH_RATE_LIMIT_TOKEN_REFRESH: '100000',
  });
  // The app reaches the backend through a proxy that counts refresh-token grants: the audit log only
  // shows rotations, and parallel grants of one token within the reuse interval rotate it once.
  proxy = await recordingProxy(backend.apiUrl);
  process.env.SUPABASE_URL = proxy.url;
  process.env.SUPABASE_ANON_KEY = backend.anonKey;
  // Sign-in attempts are counted through the service role (app/utils/rate-limit.server.ts).
  process.env.SUPABASE_SERVICE_ROLE_KEY = backend.serviceRoleKey;
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const handler = createRequestHandler(build, 'production');
  handle = (request) => handler(request);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await backend?.stop();
});

/** A cookie jar with just enough browser in it: keeps the newest value of each cookie. */
class Jar {
  private cookies = new Map<string, string>();
  absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, eq);
      const value = (pair ?? '').slice(eq + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  /** The session the jar's auth cookie holds. */
  session(): StoredSession | null {
    return sessionIn([...this.cookies].map(([name, value]) => `${name}=${value}`));
  }
}

interface StoredSession {
  refresh_token: string;
  expires_at: number;
}

/** The session in a set of `name=value` cookie lines (the auth cookie may come in chunks). */
function sessionIn(lines: string[]): StoredSession | null {
  const chunks = lines
    .map((line) => /^(sb-[^=]+-auth-token(?:\.(\d+))?)=([^;]*)/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[3] !== '')
    .sort((a, b) => Number(a[2] ?? 0) - Number(b[2] ?? 0));
  if (chunks.length === 0) return null;
  const value = decodeURIComponent(chunks.map((m) => m[3]).join(''));
  return JSON.parse(
    Buffer.from(value.replace(/^base64-/, ''), 'base64url').toString('utf8'),
  ) as StoredSession;
}

/**
 * Waits until the jar's access token is due for a refresh: auth-js refreshes one with less than 90 s
 * left (EXPIRY_MARGIN_MS, three ticks of 30 s). A moment read from the token, not a fixed sleep.
 */
async function untilRefreshDue(jar: Jar): Promise<void> {
  const expiresAt = jar.session()?.expires_at;
  if (!expiresAt) throw new Error('the jar holds no session');
  const due = expiresAt * 1000 - 90_000;
  if (due - Date.now() > 10_000) throw new Error(`the token is not due for ${due - Date.now()} ms`);
  while (Date.now() <= due) await new Promise((r) => setTimeout(r, 50));
}

/** A confirmed account on this file's backend; its address. */
async function signUpConfirmed(tag: string, password: string): Promise<string> {
  return (await confirmedUser(tag, password, backend)).email;
}

async function signIn(jar: Jar, email: string, password: string): Promise<Response> {
  const res = await handle(
    new Request(`${origin}/login`, {
      method: 'POST',
      headers: {
        Origin: origin,
        'X-Forwarded-Host': 'localhost:3000',
        'Content-Type': 'application/x-www-form-urlencoded',
        'Sec-Fetch-Site': 'same-origin',
      },
      body: new URLSearchParams({ email, password }),
    }),
  );
  jar.absorb(res);
  return res;
}

/** The refresh token in the session cookie a response sets. */
function refreshTokenSetBy(response: Response): string | null {
  return sessionIn(response.headers.getSetCookie())?.refresh_token ?? null;
}

async function auditCount(email: string, action: string): Promise<number> {
  const rows = await sql<{ n: string }>(
    "select count(*) as n from auth.audit_log_entries where payload ->> 'actor_username' = $1 and payload ->> 'action' = $2",
    [email, action],
    { url: backend.dbUrl },
  );
  return Number(rows[0]?.n ?? 0);
}

describe('sessions in the app', () => {
  it('sets cookies on path /, SameSite Lax, for about 400 days, on uncacheable responses', async () => {
    const email = await signUpConfirmed('cookies', 'a-good-password');
    const res = await signIn(new Jar(), email, 'a-good-password');
    expect(res.status).toBe(302);
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).toMatch(/SameSite=Lax/i);
      const maxAge = Number(/Max-Age=(\d+)/i.exec(cookie)?.[1]);
      expect(maxAge).toBeGreaterThan(399 * 86400);
      expect(maxAge).toBeLessThanOrEqual(400 * 86400);
    }
  });

  it('refreshes a token that is due to expire once per page load, and keeps the user signed in', async () => {
    const email = await signUpConfirmed('expiry', 'a-good-password');
    const jar = new Jar();
    await signIn(jar, email, 'a-good-password');
    await untilRefreshDue(jar);
    const before = await auditCount(email, 'token_refreshed');
    const page = await handle(new Request(`${origin}/account`, { headers: { Cookie: jar.header() } }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Signed in as <!-- -->${email}`);
    expect(page.headers.get('Cache-Control')).toBe('private, no-store');
    expect(await auditCount(email, 'token_refreshed')).toBe(before + 1);
    jar.absorb(page);

    // The refreshed session is the one the next page load uses.
    await untilRefreshDue(jar);
    const next = await handle(
      new Request(`${origin}/account/security`, { headers: { Cookie: jar.header() } }),
    );
    expect(next.status).toBe(200);
    expect(await auditCount(email, 'token_refreshed')).toBe(before + 2);
  });

  it('runs nested loaders and parallel page loads on a token due to expire: one refresh per page load, one new token for all', async () => {
    const email = await signUpConfirmed('parallel', 'a-good-password');
    const jar = new Jar();
    const signedIn = await signIn(jar, email, 'a-good-password');
    const oldToken = refreshTokenSetBy(signedIn);
    expect(oldToken).toBeTruthy();
    await untilRefreshDue(jar);
    const rotationsBefore = await auditCount(email, 'token_refreshed');
    const grantsBefore = refreshGrants();
    // Several page loads at once with the same cookies, each with several nested loaders.
    const paths = ['/account', '/account/security', '/account'];
    const pages = await Promise.all(
      paths.map((p) => handle(new Request(`${origin}${p}`, { headers: { Cookie: jar.header() } }))),
    );
    for (const page of pages) expect(page.status).toBe(200);
    // Each page load asks once, however many loaders it runs; the first grant rotates the token and
    // the others, within the reuse interval, are handed the same new one.
    expect(refreshGrants() - grantsBefore).toBe(paths.length);
    expect(await auditCount(email, 'token_refreshed')).toBe(rotationsBefore + 1);
    expect(await auditCount(email, 'token_revoked')).toBe(0);
    const newTokens = pages.map(refreshTokenSetBy);
    expect(newTokens[0]).toBeTruthy();
    expect(newTokens[0]).not.toBe(oldToken);
    expect(newTokens).toEqual(paths.map(() => newTokens[0]));
  });
});

describe('cross-site requests', () => {
  const form = () => new URLSearchParams({ email: 'victim@example.test', password: 'whatever-123' });

  it('refuses a cross-site form post without signing anyone in', async () => {
    const res = await handle(
      new Request(`${origin}/login`, {
        method: 'POST',
        headers: {
          Origin: 'https://evil.example',
          'X-Forwarded-Host': 'localhost:3000',
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: form(),
      }),
    );
    // Remix's own origin check answers document posts before any action runs (an empty 500).
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers a cross-site data request with 403', async () => {
    const res = await handle(
      new Request(`${origin}/login?_data=routes%2Flogin`, {
        method: 'POST',
        headers: { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form(),
      }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a post that says nothing about where it comes from', async () => {
    const res = await handle(
      new Request(`${origin}/logout?_data=routes%2Flogout`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(res.status).toBe(403);
  });
});
