// What the production build does with the settings a deploy gives it, over HTTP: behind a TLS proxy,
// X-Forwarded-Proto is believed only as TRUST_PROXY says (the origin check, HSTS, Secure cookies); and
// a local `npm start` with no settings at all serves against the local backend, saying so in one line.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../emulator/backend.ts';
import { postForm, startAppServer, type AppServer } from '../support/app-server.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'crewboard-settings-'));
chmodSync(dataDir, 0o755);

let backend: Backend;
let behindTrustedProxy: AppServer;
let trustingNobody: AppServer;

beforeAll(async () => {
  backend = await startBackend({ projectRoot, dataDir, apiPort: 0, dbPort: 0, mailPort: 0, smtpPort: 0 });
  [behindTrustedProxy, trustingNobody] = await Promise.all([
    startAppServer(backend, { TRUST_PROXY: 'true' }),
    startAppServer(backend, {}),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([behindTrustedProxy?.stop(), trustingNobody?.stop()]);
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A sign-in form posted through a TLS-terminating proxy by a browser that sends Origin but no
 * Sec-Fetch-Site: the proxy reaches the app over http and says https in X-Forwarded-Proto.
 */
function postThroughTlsProxy(app: AppServer, password: string) {
  const host = new URL(app.url).host;
  return fetch(`${app.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: `https://${host}`,
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-For': '203.0.113.50',
    },
    body: new URLSearchParams({ email: 'ada@demo.crewboard.test', password, next: '', website: '' }),
  });
}

describe('behind a TLS proxy', () => {
  it('passes the origin check with the https origin when TRUST_PROXY trusts the proxy', async () => {
    const wrong = await postThroughTlsProxy(behindTrustedProxy, 'not-the-password');
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('Email or password is incorrect.');
    expect(wrong.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    const right = await postThroughTlsProxy(behindTrustedProxy, 'crewboard-demo');
    expect(right.status).toBe(302);
    const cookies = right.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toContain('Secure');
  });

  it('refuses the same post without TRUST_PROXY: the claim of https is nobody’s to make', async () => {
    const res = await postThroughTlsProxy(trustingNobody, 'crewboard-demo');
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS and Secure cookies only as TRUST_PROXY says', async () => {
    const page = (app: AppServer) => fetch(`${app.url}/login`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect((await page(behindTrustedProxy)).headers.get('strict-transport-security')).not.toBeNull();
    expect((await page(trustingNobody)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('a local `npm start` with no settings', () => {
  it('serves against the local backend with its well-known keys, and says so in one line', async () => {
    const port = new URL(backend.apiUrl).port;
    const app = await startAppServer(backend, {
      SUPABASE_URL: '',
      SUPABASE_ANON_KEY: '',
      SUPABASE_SERVICE_ROLE_KEY: '',
      SESSION_SECRET: '',
      SITE_URL: '',
      // The backend of this test is not on the default port: API_PORT moves it, as for `npm run backend`.
      API_PORT: port,
    });
    try {
      const ready = await fetch(`${app.url}/readyz`);
      expect(ready.status, await ready.clone().text()).toBe(200);
      const signedIn = await postForm(app, '/login', {
        email: 'grace@demo.crewboard.test',
        password: 'crewboard-demo',
        next: '',
        website: '',
      });
      expect(signedIn.status).toBe(302);
      const lines = app
        .output()
        .split('\n')
        .filter((line) => line.includes('local backend'));
      expect(lines).toEqual([
        `Crewboard uses the local backend at http://127.0.0.1:${port} with its well-known development keys; a production deploy sets SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY and SESSION_SECRET (see .env.example).`,
      ]);
    } finally {
      await app.stop();
    }
  });
});
