// GoTrue's request limits are token buckets per client address (supabase/auth
// internal/api/apilimiter/apilimiter.go): the configured number per 5 minutes flows in continuously,
// at most 30 saved up. Every /token grant draws from one bucket (internal/api/token.go), sign-ups,
// OTPs and recoveries from RATE_LIMIT_OTP's (the CLI's `sign_in_sign_ups`), /verify from its own.
// tests/setup/backend.ts pins GoTrue's defaults: 30, 30 and 150 per 5 minutes, and names the client
// by X-Forwarded-For (AUTH_RATE_LIMIT_HEADER, GoTrue's GOTRUE_RATE_LIMIT_HEADER): without that
// header GoTrue limits no client at all (internal/api/middleware.go, performRateLimitingWithHeader).
import { describe, expect, it } from 'vitest';
import { backend, confirmedUser, testIp } from '../../tests/support/backend.ts';

function post(path: string, ip: string, body: unknown): Promise<Response> {
  return fetch(`${backend().apiUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: backend().anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  });
}

const badVerify = (ip: string) => post('/verify', ip, { type: 'signup', token_hash: 'no-such-hash' });

async function pollUntil(deadlineMs: number, attempt: () => Promise<boolean>): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await attempt()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

describe('auth rate limits', () => {
  it('limits nobody whose request lacks the rate-limit header: 40 sign-ups in a row all answered', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${backend().apiUrl}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: backend().anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'not-an-email', password: 'a-good-password' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 400));
  });

  it('lets a burst of 30 sign-ups through, refuses the 31st inside 5 minutes with 429', async () => {
    const ip = testIp();
    for (let i = 0; i < 30; i++) {
      const res = await post('/signup', ip, { email: 'not-an-email', password: 'a-good-password' });
      expect(res.status).toBe(400);
    }
    const refused = await post('/signup', ip, { email: 'not-an-email', password: 'a-good-password' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
    // Another address has its own bucket.
    expect((await post('/signup', testIp(), { email: 'x', password: 'y' })).status).not.toBe(429);
  });

  it('refills continuously: 30 verifications per 5 minutes is one more every 10 s, not a new window in 5 minutes', async () => {
    const ip = testIp();
    const answers = await Promise.all(Array.from({ length: 30 }, () => badVerify(ip)));
    expect(answers.map((r) => r.status)).not.toContain(429);
    expect((await badVerify(ip)).status).toBe(429);
    const refilled = await pollUntil(15_000, async () => (await badVerify(ip)).status !== 429);
    expect(refilled).toBe(true);
    // One token came back, and it is spent again.
    expect((await badVerify(ip)).status).toBe(429);
  }, 25_000);

  it('counts password sign-ins and refreshes against the same /token bucket', async () => {
    const user = await confirmedUser('bucket');
    const ip = testIp();
    const refreshes = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/token?grant_type=refresh_token', ip, { refresh_token: 'not-a-token' }),
      ),
    );
    expect(refreshes.map((r) => r.status)).not.toContain(429);
    const signIn = await post('/token?grant_type=password', ip, {
      email: user.email,
      password: user.password,
    });
    expect(signIn.status).toBe(429);
    expect(await signIn.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
  });
});
