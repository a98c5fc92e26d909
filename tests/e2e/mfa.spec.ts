import type { Browser, Page } from '@playwright/test';
import { Authenticator } from '../support/authenticator.ts';
import {
  addMember,
  codeIn,
  createConfirmedUser,
  endpoints,
  expect,
  expectFlashOnce,
  flash,
  latestMail,
  signIn,
  test,
  signInAs,
} from './support.ts';

const MFA_INVALID = "That code is not valid. Check your device's clock and try again.";

/** Sets up an authenticator app from the secret the page shows, as a person typing it in would. */
async function enrol(page: Page): Promise<Authenticator> {
  await page.goto('/account/security');
  await page.getByRole('link', { name: 'Manage two-step verification' }).click();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(qr).toBeVisible();
  const app = new Authenticator(await page.getByLabel('Or type this secret key into the app').inputValue());

  // A mistyped first code keeps the QR code and the secret on the page.
  await page.getByLabel('Code', { exact: true }).fill(app.wrongCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(MFA_INVALID)).toBeVisible();
  await expect(qr).toBeVisible();
  await expect(page.getByLabel('Or type this secret key into the app')).toHaveValue(app.secret);

  await page.getByLabel('Code', { exact: true }).fill(await app.nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account\/security\/mfa$/);
  await expect(
    flash(page, 'Two-step verification is on. Each sign-in will ask for a code from your authenticator app.'),
  ).toBeVisible();
  return app;
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Fw$/);
  await expect(page.getByText('Enter the code from your authenticator app to continue.')).toBeVisible();
}

async function codeStep(page: Page, code: string): Promise<void> {
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

test('enrol an authenticator app, sign in with a password and then its code, remove it', async ({
  page,
  signedIn,
}) => {
  test.setTimeout(120_000);
  const { email, password } = signedIn;
  const app = await enrol(page);
  await signOut(page);

  await passwordStep(page, email, password);
  // No workspace or account page opens before the second step.
  for (const path of ['/w', '/account', '/account/security/mfa']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/login/mfa\\?next=${encodeURIComponent(path)}$`));
  }
  await page.goto('/login/mfa?next=%2Fw');
  await codeStep(page, app.wrongCode());
  await expect(page.getByText(MFA_INVALID)).toBeVisible();
  await expect(page.getByLabel('Code', { exact: true })).toHaveValue('');
  await codeStep(page, await app.nextCode());
  await expect(page).toHaveURL(/\/w$/);
  await page.goto('/account/security');
  await expect(page.getByText('On: signing in asks for a code from your authenticator app.')).toBeVisible();
  await signOut(page);

  // An emailed code is a first factor too.
  await page.goto('/login/code');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Code', { exact: true }).fill(codeIn(await latestMail(email, /sign-in code/)));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Fw$/);
  await codeStep(page, await app.nextCode());
  await expect(page).toHaveURL(/\/w$/);

  // Removing the app takes a fresh code.
  await page.goto('/account/security/mfa');
  const row = page.getByRole('listitem', { name: 'Authenticator app' });
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
  await row.getByLabel('Code', { exact: true }).fill(await app.nextCode());
  await row.getByRole('button', { name: 'Remove' }).click();
  await expectFlashOnce(page, 'The authenticator app was removed. Two-step verification is off.');
  await signOut(page);
  await signIn(page, email, password);
});

async function secondDevice(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

test('lists the signed-in devices and signs out one of them', async ({ page, browser, signedIn }) => {
  const { email, password } = signedIn;
  const other = await secondDevice(browser, email, password);
  await page.goto('/account/security');
  const devices = page.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');
  await expect(devices).toHaveCount(2);
  await expect(devices.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(devices.first()).toContainText(/Chrome on Linux/);
  await expect(devices.first()).toContainText('Last seen just now');

  await devices
    .filter({ hasNotText: 'This device' })
    .getByRole('button', { name: /^Sign out/ })
    .click();
  await expect(page.getByText('That device was signed out.')).toBeVisible();
  await expect(devices).toHaveCount(1);

  await other.page.reload();
  await expect(other.page).toHaveURL(/\/login\?next=/);
  await other.context.close();
  await page.goto('/account');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

/** The files in a user's avatar folder, as the service role sees them. */
async function avatarFiles(userId: string): Promise<unknown[]> {
  const { apiUrl, serviceRoleKey } = endpoints();
  const res = await fetch(`${apiUrl}/storage/v1/object/list/avatars`, {
    method: 'POST',
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ prefix: userId, limit: 100, offset: 0 }),
  });
  return (await res.json()) as unknown[];
}

async function deleteAccount(page: Page, password: string): Promise<void> {
  await page.goto('/account/security');
  const panel = page.getByRole('region', { name: 'Delete account' });
  await panel.getByLabel('Current password').fill(password);
  await panel.getByRole('button', { name: 'Delete account' }).click();
}

test('deletes an account; the sole owner of a shared workspace is told what to do first', async ({
  page,
  browser,
}) => {
  const owner = await createConfirmedUser('sole-owner');
  const member = await createConfirmedUser('teammate');
  await signInAs(page, owner);
  const slug = `crew-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Crew');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}$`));
  await addMember(slug, member.id, 'member');

  await deleteAccount(page, 'not-my-password');
  await expect(page.getByText('That is not your current password.')).toBeVisible();
  await deleteAccount(page, owner.password);
  await expect(
    page.getByText(/First transfer ownership to another member, or delete the workspace/),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Crew', exact: true })).toHaveAttribute(
    'href',
    `/w/${slug}/settings`,
  );

  // The teammate owns nothing shared: their account goes at once, and they are signed out.
  const teammate = await secondDevice(browser, member.email, member.password);
  // Their picture is one of the files that must go with the account.
  await teammate.page.goto('/account');
  await teammate.page.getByLabel('New picture').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  });
  await teammate.page.getByRole('button', { name: 'Upload picture' }).click();
  await expect(flash(teammate.page, 'Your picture was updated.')).toBeVisible();
  expect(await avatarFiles(member.id)).toHaveLength(1);
  await deleteAccount(teammate.page, member.password);
  await expect(teammate.page).toHaveURL(/\/login$/);
  await expectFlashOnce(teammate.page, 'Your account has been deleted.');
  expect(await avatarFiles(member.id)).toEqual([]);
  await teammate.page.goto('/account');
  await expect(teammate.page).toHaveURL(/\/login\?next=%2Faccount$/);
  await teammate.page.getByLabel('Email', { exact: true }).fill(member.email);
  await teammate.page.getByLabel('Password', { exact: true }).fill(member.password);
  await teammate.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(teammate.page.getByText('Email or password is incorrect.')).toBeVisible();
  await teammate.context.close();

  // Now nobody else is in the workspace: it goes with its owner's account.
  await deleteAccount(page, owner.password);
  await expect(page).toHaveURL(/\/login$/);
  await expect(flash(page, 'Your account has been deleted.')).toBeVisible();
  const { apiUrl, serviceRoleKey } = endpoints();
  const res = await fetch(`${apiUrl}/rest/v1/workspaces?select=id&slug=eq.${slug}`, {
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
  });
  expect(await res.json()).toEqual([]);
});

test('a set-up left half-way is not listed as a working app', async ({ page, signedIn: _signedIn }) => {
  await page.goto('/account/security');
  await page.getByRole('link', { name: 'Manage two-step verification' }).click();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByLabel('Or type this secret key into the app')).toBeVisible();
  // Left: the page opened again without the code ever typed.
  await page.goto('/account/security/mfa');
  await expect(page.getByText('Setup not finished')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Your authenticator apps' })).toHaveCount(0);
  await expect(page.getByText(/^Off:/)).toBeVisible();
});
