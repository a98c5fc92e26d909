import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PEER_HEADER } from './client-address.server.ts';
import { accountKey, DEVICE_COOKIE, deviceAllowance, withDeviceCookie } from './device-cookie.server.ts';
import { reloadConfig } from './env.server.ts';

const SECRET = 'a-secret-for-the-device-cookie-tests-32-chars';
const OTHER_SECRET = 'another-secret-for-the-device-cookie-32-chars';
const saved = { SESSION_SECRET: process.env.SESSION_SECRET, TRUST_PROXY: process.env.TRUST_PROXY };

function useEnv(env: { SESSION_SECRET?: string; TRUST_PROXY?: string }) {
  for (const name of ['SESSION_SECRET', 'TRUST_PROXY'] as const) {
    const value = env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
}

beforeEach(() => useEnv({ SESSION_SECRET: SECRET }));
afterEach(() => useEnv(saved));

const ada = { id: '6f1c1e52-8f0e-4a57-9a0e-6c1f5d2b9a11', email: 'Ada@Example.test' };
const grace = { id: '0b6f3c2a-1d4e-4f5a-8b7c-9d0e1f2a3b4c', email: 'grace@example.test' };

function browser(cookie = '', url = 'http://localhost/login', headers: Record<string, string> = {}): Request {
  return new Request(url, { headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers } });
}

/** The Set-Cookie header a sign-in's redirect carries for the device cookie, or null. */
async function issued(request: Request, account: Parameters<typeof withDeviceCookie>[2]) {
  const response = await withDeviceCookie(new Response(null, { status: 302 }), request, account);
  return response.headers.getSetCookie().find((line) => line.startsWith(`${DEVICE_COOKIE}=`)) ?? null;
}

/** The name=value part, as the browser sends it back. */
const sentBack = (setCookie: string | null) => (setCookie ?? '').split(';')[0] ?? '';

describe('the device cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, kept about as long as a session, Secure on https', async () => {
    const plain = await issued(browser(), ada);
    expect(plain).toContain('HttpOnly');
    expect(plain).toContain('SameSite=Lax');
    expect(plain).toContain('Path=/');
    expect(Number(/Max-Age=(\d+)/.exec(plain ?? '')?.[1])).toBe(400 * 24 * 60 * 60);
    expect(plain).not.toContain('Secure');
    expect(await issued(browser('', 'https://crewboard.example/login'), ada)).toContain('Secure');
  });

  it('is Secure behind a TLS proxy only when TRUST_PROXY trusts the proxy that says so', async () => {
    const proxied = () =>
      browser('', 'http://localhost/login', { 'X-Forwarded-Proto': 'https', [PEER_HEADER]: '10.0.0.2' });
    expect(await issued(proxied(), ada)).not.toContain('Secure');
    useEnv({ SESSION_SECRET: SECRET, TRUST_PROXY: 'true' });
    expect(await issued(proxied(), ada)).toContain('Secure');
  });

  it('names the account by its email, in any letter case, and by its user id', async () => {
    const cookie = sentBack(await issued(browser(), ada));
    const device = await deviceAllowance(browser(cookie), 'ada@example.test');
    expect(device).toMatch(/^[0-9a-f-]{36}$/);
    expect(await deviceAllowance(browser(cookie), ' ADA@example.test ')).toBe(device);
    expect(await deviceAllowance(browser(cookie), ada.id)).toBe(device);
    expect(await deviceAllowance(browser(cookie), grace.email)).toBeNull();
    expect(await deviceAllowance(browser(), ada.email)).toBeNull();
    // The cookie names accounts by hashes only.
    expect(decodeURIComponent(cookie)).not.toMatch(/ada|example/i);
  });

  it('is not given while the sign-in still owes its second factor', async () => {
    expect(await issued(browser(), { ...ada, factors: [{ status: 'verified' }] })).toBeNull();
    expect(await issued(browser(), { ...ada, factors: [{ status: 'unverified' }] })).not.toBeNull();
  });

  it('counts for nothing when tampered with, or signed with a secret the app no longer has', async () => {
    const cookie = sentBack(await issued(browser(), ada));
    const [name = '', value = ''] = cookie.split('=');
    const [payload = '', signature = ''] = decodeURIComponent(value).split('.');
    const rebuilt = (data: string) => `${name}=${encodeURIComponent(`${data}.${signature}`)}`;
    expect(await deviceAllowance(browser(rebuilt(payload)), ada.email)).not.toBeNull();
    // Another allowance id for the same account, under the signature of the real one.
    const swapped = [{ accounts: [accountKey(ada.email)], device: crypto.randomUUID() }];
    const forged = rebuilt(Buffer.from(JSON.stringify(swapped)).toString('base64'));
    expect(await deviceAllowance(browser(forged), ada.email)).toBeNull();

    useEnv({ SESSION_SECRET: OTHER_SECRET });
    expect(await deviceAllowance(browser(cookie), ada.email)).toBeNull();
    // Rotated: the old secret kept after the new one still reads it.
    useEnv({ SESSION_SECRET: `${OTHER_SECRET},${SECRET}` });
    expect(await deviceAllowance(browser(cookie), ada.email)).not.toBeNull();
  });

  it('remembers a few accounts per browser, newest first, and a new allowance at each sign-in', async () => {
    const first = sentBack(await issued(browser(), ada));
    const adaDevice = await deviceAllowance(browser(first), ada.email);
    const both = sentBack(await issued(browser(first), grace));
    expect(await deviceAllowance(browser(both), ada.email)).toBe(adaDevice);
    expect(await deviceAllowance(browser(both), grace.email)).not.toBeNull();

    const again = sentBack(await issued(browser(both), ada));
    const renewed = await deviceAllowance(browser(again), ada.email);
    expect(renewed).not.toBeNull();
    expect(renewed).not.toBe(adaDevice);

    let cookie = again;
    for (let i = 0; i < 6; i++) {
      cookie = sentBack(
        await issued(browser(cookie), { id: crypto.randomUUID(), email: `user-${i}@example.test` }),
      );
    }
    expect(await deviceAllowance(browser(cookie), 'user-5@example.test')).not.toBeNull();
    expect(await deviceAllowance(browser(cookie), 'user-1@example.test')).not.toBeNull();
    // Five at most: the two used longest ago are gone.
    expect(await deviceAllowance(browser(cookie), 'user-0@example.test')).toBeNull();
    expect(await deviceAllowance(browser(cookie), ada.email)).toBeNull();
  });
});
