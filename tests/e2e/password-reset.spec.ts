import type { Page } from '@playwright/test';
import { Authenticator } from '../support/authenticator.ts';
import {
  createConfirmedUser,
  endpoints,
  expect,
  expectFlashOnce,
  flash,
  latestMail,
  linkIn,
  signIn,
  test,
} from './support.ts';

const WEAK = 'Use 8 to 72 characters, and not your email address.';

async function requestReset(page: Page, email: string): Promise<void> {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText(`If ${email} has an account, we sent it a link to choose a new password.`),
  ).toBeVisible();
  await page.goto(linkIn(await latestMail(email, /Reset/), '/auth/confirm'));
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A form post to /reset-password from this page's browser, as a script on the same site could send. */
function postNewPassword(page: Page, password: string) {
  const { appUrl } = endpoints();
  return page.request.post('/reset-password', {
    form: { password },
    headers: { Origin: appUrl },
    maxRedirects: 0,
  });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('forgot → reset once → sign in with the new password', async ({ page }) => {
  const { email, password } = await createConfirmedUser('reset');
  await requestReset(page, email);
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText(WEAK)).toBeVisible();
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText(WEAK)).toBeVisible();
  await page.getByLabel('New password').fill('a-brand-new-password');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expectFlashOnce(page, 'Your password has been changed.');

  // The link's permission is spent: the same session cannot set another password without the current one.
  const again = await postNewPassword(page, 'a-third-password');
  expect(again.status()).toBe(302);
  expect(again.headers().location).toBe('/account/security');
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/account\/security$/);

  await signOut(page);
  await signIn(page, email, 'a-brand-new-password');
});

test('a session that did not come from a recovery link cannot set a password', async ({ page, context }) => {
  const { email, password } = await createConfirmedUser('no-reset');
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, email, password);
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/account\/security$/);
  const refused = await postNewPassword(page, 'taken-over-password');
  expect(refused.status()).toBe(302);
  expect(refused.headers().location).toBe('/account/security');

  // Writing the marker by hand does not help: the session itself must have begun with an email link.
  const sessionId = await currentSessionId(page);
  await context.addCookies([
    { name: 'crewboard-recovery', value: sessionId, url: `${endpoints().appUrl}/reset-password` },
  ]);
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/account\/security$/);
  expect((await postNewPassword(page, 'taken-over-password')).headers().location).toBe('/account/security');

  await signOut(page);
  await signIn(page, email, password);
});

test('with two-step verification on, a recovery link asks for the app’s code before the reset', async ({
  page,
  signedIn,
}) => {
  test.setTimeout(90_000);
  const { email } = signedIn;
  const app = await enrol(page);
  await signOut(page);

  await requestReset(page, email);
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Freset-password$/);
  for (const path of ['/w', '/account']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/login/mfa\\?next=${encodeURIComponent(path)}$`));
  }
  expect((await postNewPassword(page, 'before-the-second-step')).headers().location).toBe(
    '/login/mfa?next=%2Freset-password',
  );
  await page.goto('/login/mfa?next=%2Freset-password');
  await page.getByLabel('Code', { exact: true }).fill(await app.nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('New password').fill('a-brand-new-password');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(flash(page, 'Your password has been changed.')).toBeVisible();

  await signOut(page);
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('a-brand-new-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Fw$/);
});

test('a reset for an unknown email looks the same as for a known one', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill('no-such-person@example.test');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText(
      'If no-such-person@example.test has an account, we sent it a link to choose a new password.',
    ),
  ).toBeVisible();
});

async function enrol(page: Page): Promise<Authenticator> {
  await page.goto('/account/security/mfa');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const app = new Authenticator(await page.getByLabel('Or type this secret key into the app').inputValue());
  await page.getByLabel('Code', { exact: true }).fill(await app.nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(/^Two-step verification is on\./)).toBeVisible();
  return app;
}

/** The id of this browser's session, from the access token in its auth cookie (chunked or not). */
async function currentSessionId(page: Page): Promise<string> {
  const cookies = (await page.context().cookies()).filter((c) => /^sb-.+-auth-token(\.\d+)?$/.test(c.name));
  cookies.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  const raw = cookies.map((c) => decodeURIComponent(c.value)).join('');
  const session = JSON.parse(Buffer.from(raw.replace(/^base64-/, ''), 'base64url').toString('utf8')) as {
    access_token: string;
  };
  const payload = JSON.parse(
    Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString('utf8'),
  ) as { session_id: string };
  return payload.session_id;
}
