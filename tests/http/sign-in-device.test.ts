// Nobody can keep an account's owner from signing in by failing on purpose: a browser that has
// signed in to the account before carries a signed device cookie and has an allowance of its own for
// it, while unknown browsers share the account's (OWASP, "Slow Down Online Guessing Attacks with Device
// Cookies"). A device cookie that keeps failing is refused in turn, not the account. The production
// build runs against a backend of its own, at 3 attempts per account in 5 minutes.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../emulator/backend.ts';
import { Authenticator } from '../support/authenticator.ts';
import { formHeaders, startAppServer, type AppServer } from '../support/app-server.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'crewboard-device-'));
chmodSync(dataDir, 0o755);

const PER_ACCOUNT = 3;
const DEVICE_COOKIE = 'crewboard_device';

let backend: Backend;
let app: AppServer;

beforeAll(async () => {
  backend = await startBackend({ projectRoot, dataDir, apiPort: 0, dbPort: 0, mailPort: 0, smtpPort: 0 });
  app = await startAppServer(backend, {
    // The test plays a proxy: it writes each visitor's address into X-Forwarded-For.
    TRUST_PROXY: 'true',
    RATE_LIMIT_SIGN_IN_PER_VISITOR: '30',
    RATE_LIMIT_SIGN_IN_PER_ACCOUNT: String(PER_ACCOUNT),
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

let visitorCounter = 0;
const newVisitor = () => `198.51.100.${++visitorCounter}`;

async function admin<T>(pathname: string, body: unknown, token = backend.serviceRoleKey): Promise<T> {
  const res = await fetch(`${backend.apiUrl}/auth/v1${pathname}`, {
    method: 'POST',
    headers: {
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function createUser(tag: string): Promise<{ email: string; password: string }> {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
  const password = `${tag}-password-1`;
  await admin('/admin/users', { email, password, email_confirm: true });
  return { email, password };
}

interface Answer {
  status: number;
  body: string;
  /** The cookies the answer set, by name (value only). */
  cookies: Map<string, string>;
}

async function post(pathname: string, fields: Record<string, string>, cookie = '', visitor = newVisitor()) {
  const res = await fetch(`${app.url}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...formHeaders(app, { 'X-Forwarded-For': visitor }), ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });
  const cookies = new Map(
    res.headers.getSetCookie().map((line) => {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)] as const;
    }),
  );
  return { status: res.status, body: await res.text(), cookies } satisfies Answer;
}

const signIn = (email: string, password: string, cookie = '', visitor?: string) =>
  post('/login', { email, password, next: '', website: '' }, cookie, visitor);

/** The device cookie an answer set, as the browser sends it back. */
function deviceCookieOf(answer: Answer): string {
  const value = answer.cookies.get(DEVICE_COOKIE);
  expect(value, 'a device cookie').toBeTruthy();
  return `${DEVICE_COOKIE}=${value}`;
}

/**
 * Wrong passwords from new addresses until the account refuses unknown browsers: at most as many as
 * it allows (fewer when sign-ins without a device cookie already took some of its allowance).
 */
async function lockFromElsewhere(email: string): Promise<void> {
  const statuses: number[] = [];
  while (!statuses.includes(429) && statuses.length <= PER_ACCOUNT)
    statuses.push((await signIn(email, 'wrong-password')).status);
  expect(statuses.at(-1)).toBe(429);
  expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
}

describe('device cookies', () => {
  it('let a browser that signed in before through while failures from elsewhere lock the account', async () => {
    const { email, password } = await createUser('owner');
    const device = deviceCookieOf(await signIn(email, password));
    await lockFromElsewhere(email);

    const unknown = await signIn(email, password);
    expect(unknown.status).toBe(429);
    expect(unknown.body).toMatch(/Too many attempts\. Try again in \d+ seconds\./);

    const owner = await signIn(email, password, device);
    expect(owner.status).toBe(302);
    expect(owner.cookies.get(DEVICE_COOKIE)).toBeTruthy();
  });

  it('refuse a device cookie that keeps failing, and not the account', async () => {
    const { email, password } = await createUser('guessed');
    const device = deviceCookieOf(await signIn(email, password));
    for (let i = 0; i < PER_ACCOUNT; i++) expect((await signIn(email, 'wrong', device)).status).toBe(400);
    expect((await signIn(email, password, device)).status).toBe(429);
    // The account's own allowance was not touched: another browser still signs in.
    expect((await signIn(email, password)).status).toBe(302);
  });

  it('count for nothing when forged, or when they name another account', async () => {
    const { email, password } = await createUser('target');
    const other = await createUser('other');
    const otherDevice = deviceCookieOf(await signIn(other.email, other.password));
    const device = deviceCookieOf(await signIn(email, password));
    await lockFromElsewhere(email);

    expect((await signIn(email, password, otherDevice)).status).toBe(429);
    const [name, value = ''] = device.split('=');
    const [payload = '', signature = ''] = decodeURIComponent(value).split('.');
    const tampered = `${payload.slice(0, -4)}AAAA`;
    expect(
      (await signIn(email, password, `${name}=${encodeURIComponent(`${tampered}.${signature}`)}`)).status,
    ).toBe(429);
    // The real one, as a control: the same request with it goes through.
    expect((await signIn(email, password, device)).status).toBe(302);
  });

  it('are given after the second factor, not after the password alone', async () => {
    const { email, password } = await createUser('two-step');
    const app2fa = await verifiedFactor(email, password);
    const first = await signIn(email, password);
    expect(first.status).toBe(302);
    expect(first.cookies.has(DEVICE_COOKIE)).toBe(false);
    const session = [...first.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const verified = await post('/login/mfa', { code: await app2fa.nextCode(), next: '' }, session);
    expect(verified.status).toBe(302);
    const device = deviceCookieOf(verified);

    await lockFromElsewhere(email);
    expect((await signIn(email, password)).status).toBe(429);
    expect((await signIn(email, password, device)).status).toBe(302);
  });
});

/** Enrols and verifies an authenticator app for the account through the auth API, as the app would. */
async function verifiedFactor(email: string, password: string): Promise<Authenticator> {
  const { access_token: token } = await admin<{ access_token: string }>('/token?grant_type=password', {
    email,
    password,
  });
  const factor = await admin<{ id: string; totp: { secret: string } }>(
    '/factors',
    { factor_type: 'totp', friendly_name: 'Phone' },
    token,
  );
  const authenticator = new Authenticator(factor.totp.secret);
  const challenge = await admin<{ id: string }>(`/factors/${factor.id}/challenge`, {}, token);
  await admin(
    `/factors/${factor.id}/verify`,
    { challenge_id: challenge.id, code: await authenticator.nextCode() },
    token,
  );
  return authenticator;
}
