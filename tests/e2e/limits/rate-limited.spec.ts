// The catalogue's rate_limited message, with the real number of seconds, where a person meets a limit:
// password sign-in, code sign-in, asking for the email again, and the MFA step. These run against
// the e2e stack's second app (tests/e2e/server.ts), which allows 3 attempts per account in 5 minutes,
// as production allows 10; the accounts are each test's own. Asking again is limited by the auth
// server itself: one email per address per minute ([auth.email] max_frequency), and its answer says
// how long is left.
import type { Page, Response } from '@playwright/test';
import { Authenticator } from '../../support/authenticator.ts';
import { codeIn, createConfirmedUser, endpoints, expect, latestMail, test, uniqueEmail } from '../support.ts';

const MESSAGE = /^Too many attempts\. Try again in (\d+) seconds\.$/;

/** Submits with `click` and returns the answer to the form post (a document, or a fetch with JavaScript). */
async function submit(page: Page, click: () => Promise<void>): Promise<Response> {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST');
  await click();
  return answer;
}

/** When an attempt started (the first of a bucket, or the email): between these two moments. */
interface Start {
  after: number;
  before: number;
}

const now = (): Start => ({ after: Date.now(), before: Date.now() });

/**
 * Submits with `click`, which the limit refuses, and checks the page says to wait what is left of
 * `window` seconds counted from `start`: the app's buckets refill continuously (3 per 300 s, one
 * every 100 s), and the auth server counts a minute from the last email. The number is bounded on
 * both sides by when the clock started and when the refusal was made, so a made-up figure fails.
 */
async function expectRefusedToWait(page: Page, click: () => Promise<void>, window: number, start: Start) {
  const clicked = Date.now();
  const refused = await submit(page, click);
  const answered = Date.now();
  expect(refused.status()).toBe(429);
  const message = page.getByText(MESSAGE);
  await expect(message).toBeVisible();
  const seconds = Number(MESSAGE.exec((await message.textContent()) ?? '')?.[1]);
  expect(seconds).toBeGreaterThanOrEqual(Math.floor(window - (answered - start.after) / 1000));
  expect(seconds).toBeLessThanOrEqual(Math.ceil(window - (clicked - start.before) / 1000));
}

test('password sign-in: the fourth attempt in five minutes is refused, saying how long to wait', async ({
  page,
}) => {
  const { email, password } = await createConfirmedUser('limited-password');
  await page.goto('/login');
  const start = now();
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    const answer = await submit(page, () => page.getByRole('button', { name: 'Sign in' }).click());
    if (attempt === 1) start.before = Date.now();
    expect(answer.status()).toBe(400);
    await expect(page.getByText('Email or password is incorrect.')).toBeVisible();
  }
  // Even the right password waits.
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await expectRefusedToWait(page, () => page.getByRole('button', { name: 'Sign in' }).click(), 100, start);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await expect(page).toHaveURL(/\/login$/);
});

test('code sign-in: after the code is sent, two wrong codes, and then even the right one waits', async ({
  page,
}) => {
  const { email } = await createConfirmedUser('limited-code');
  await page.goto('/login/code');
  const start = now();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  start.before = Date.now();
  const code = codeIn(await latestMail(email, /sign-in code/));
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  for (let attempt = 2; attempt <= 3; attempt++) {
    await page.getByLabel('Code').fill(wrong);
    const answer = await submit(page, () => page.getByRole('button', { name: 'Verify' }).click());
    expect(answer.status()).toBe(400);
    await expect(page.getByText('That code is not valid or has expired.')).toBeVisible();
  }
  await page.getByLabel('Code').fill(code);
  await expectRefusedToWait(page, () => page.getByRole('button', { name: 'Verify' }).click(), 100, start);
  await expect(page).toHaveURL(/\/login\/code/);
});

test('asking for the confirmation email again within a minute: the auth server says how long is left', async ({
  page,
}) => {
  const email = uniqueEmail('limited-resend');
  await page.goto('/signup');
  const start = now();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('a-long-password-1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  start.before = Date.now();
  await latestMail(email, /Confirm/);
  // Time itself is what is measured here: a few seconds must pass for the figure to show them.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await expectRefusedToWait(
    page,
    () => page.getByRole('button', { name: 'Send the link again' }).click(),
    60,
    start,
  );
});

test('the MFA step: three wrong codes, then even the right one waits', async ({ page }) => {
  const { email, password } = await createConfirmedUser('limited-mfa');
  const app = await verifiedFactor(email, password);
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login\/mfa/);
  const start = now();
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.getByLabel('Code').fill(app.wrongCode());
    const answer = await submit(page, () => page.getByRole('button', { name: 'Verify' }).click());
    if (attempt === 1) start.before = Date.now();
    expect(answer.status()).toBe(400);
    await expect(
      page.getByText("That code is not valid. Check your device's clock and try again."),
    ).toBeVisible();
  }
  await page.getByLabel('Code').fill(await app.nextCode());
  await expectRefusedToWait(page, () => page.getByRole('button', { name: 'Verify' }).click(), 100, start);
  await expect(page).toHaveURL(/\/login\/mfa/);
});

/** Enrols and verifies an authenticator app for the account through the auth API, as the app would. */
async function verifiedFactor(email: string, password: string): Promise<Authenticator> {
  const { apiUrl, serviceRoleKey } = endpoints();
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${apiUrl}/auth/v1${path}`, {
      method: 'POST',
      headers: {
        apikey: serviceRoleKey,
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    expect(res.status, path).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const { access_token: token } = (await call('/token?grant_type=password', { email, password })) as {
    access_token: string;
  };
  const factor = (await call('/factors', { factor_type: 'totp', friendly_name: 'Phone' }, token)) as {
    id: string;
    totp: { secret: string };
  };
  const app = new Authenticator(factor.totp.secret);
  const challenge = (await call(`/factors/${factor.id}/challenge`, {}, token)) as { id: string };
  await call(
    `/factors/${factor.id}/verify`,
    { challenge_id: challenge.id, code: await app.nextCode() },
    token,
  );
  return app;
}
