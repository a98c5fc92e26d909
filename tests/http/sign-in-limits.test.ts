// Sign-in limits are the app's, per visitor and per account, shared by every app process: one
// visitor's failures never refuse another. Two remix-serve processes of the production build run
// against a backend of their own with the auth API's limits as supabase/config.toml sets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../emulator/backend.ts';
import { formHeaders, startAppServer, type AppServer } from '../support/app-server.ts';
import { startPrivateBackend } from '../support/private-backend.ts';

const PER_VISITOR = 5;
const PER_ACCOUNT = 3;
const DEMO_PASSWORD = 'crewboard-demo';

let backend: Backend;
let first: AppServer;
let second: AppServer;

beforeAll(async () => {
  backend = await startPrivateBackend('limits');
  const env = {
    // The test plays a proxy: it writes each visitor's address into X-Forwarded-For.
    TRUST_PROXY: 'true',
    RATE_LIMIT_SIGN_IN_PER_VISITOR: String(PER_VISITOR),
    RATE_LIMIT_SIGN_IN_PER_ACCOUNT: String(PER_ACCOUNT),
  };
  [first, second] = await Promise.all([startAppServer(backend, env), startAppServer(backend, env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await backend?.stop();
});

let visitorCounter = 0;
const newVisitor = () => `203.0.113.${++visitorCounter}`;
let emailCounter = 0;
const madeUpEmail = () => `nobody-${++emailCounter}-${Date.now()}@example.test`;

async function signIn(app: AppServer, visitor: string, email: string, password: string) {
  const res = await fetch(`${app.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: formHeaders(app, { 'X-Forwarded-For': visitor }),
    body: new URLSearchParams({ email, password, next: '', website: '' }),
  });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

const LIMITED = /Too many attempts\. Try again in (\d+) seconds\./;

function expectRefused(attempt: { status: number; body: string }, maxSeconds: number): void {
  expect(attempt.status).toBe(429);
  const seconds = Number(LIMITED.exec(attempt.body)?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
}

describe('sign-in limits', () => {
  it('a flood from one visitor refuses that visitor only; another signs in at once', async () => {
    const a = newVisitor();
    for (let i = 0; i < PER_VISITOR; i++) {
      const attempt = await signIn(first, a, madeUpEmail(), 'wrong-password');
      expect(attempt.status).toBe(400);
      expect(attempt.body).toContain('Email or password is incorrect.');
    }
    // Buckets refill at PER_VISITOR per 300 s: one attempt comes back within 300 / PER_VISITOR s.
    expectRefused(await signIn(first, a, madeUpEmail(), 'wrong-password'), 300 / PER_VISITOR);
    // Even the right password: the visitor is refused before the auth API is asked.
    expectRefused(await signIn(first, a, 'ada@demo.crewboard.test', DEMO_PASSWORD), 300 / PER_VISITOR);

    const b = await signIn(first, newVisitor(), 'ada@demo.crewboard.test', DEMO_PASSWORD);
    expect(b.status).toBe(302);
    expect(b.location).toBe('/w');
  });

  it('a flood against one account from many addresses slows that account only', async () => {
    for (let i = 0; i < PER_ACCOUNT; i++) {
      const attempt = await signIn(first, newVisitor(), 'grace@demo.crewboard.test', 'wrong-password');
      expect(attempt.status).toBe(400);
    }
    const fresh = newVisitor();
    expectRefused(await signIn(first, fresh, 'grace@demo.crewboard.test', DEMO_PASSWORD), 300 / PER_ACCOUNT);
    // The same fresh address signs in to another account: only grace's account is slowed.
    const other = await signIn(first, fresh, 'linus@demo.crewboard.test', DEMO_PASSWORD);
    expect(other.status).toBe(302);
  });

  it('two app processes share one limit', async () => {
    const visitor = newVisitor();
    const statuses: number[] = [];
    for (let i = 0; i < PER_VISITOR; i++) {
      const app = i % 2 === 0 ? first : second;
      statuses.push((await signIn(app, visitor, madeUpEmail(), 'wrong-password')).status);
    }
    expect(statuses).toEqual(Array(PER_VISITOR).fill(400));
    // Each process has seen only part of the attempts; both refuse the next one.
    expectRefused(await signIn(second, visitor, madeUpEmail(), 'wrong-password'), 300 / PER_VISITOR);
    expectRefused(await signIn(first, visitor, madeUpEmail(), 'wrong-password'), 300 / PER_VISITOR);
  });

  it('code sign-in counts wrong codes against the visitor, not everyone', async () => {
    const a = newVisitor();
    const email = madeUpEmail();
    const verify = (visitor: string) =>
      fetch(`${first.url}/login/code`, {
        method: 'POST',
        redirect: 'manual',
        headers: formHeaders(first, { 'X-Forwarded-For': visitor }),
        body: new URLSearchParams({ intent: 'verify', email, code: '000000', next: '', website: '' }),
      }).then(async (res) => ({ status: res.status, body: await res.text() }));
    for (let i = 0; i < PER_ACCOUNT; i++) expect((await verify(a)).status).toBe(400);
    expectRefused(await verify(a), 300 / PER_ACCOUNT);
    const b = await signIn(first, newVisitor(), 'ada@demo.crewboard.test', DEMO_PASSWORD);
    expect(b.status).toBe(302);
  });
});
