import type { Browser } from '@playwright/test';
import {
  createConfirmedUser,
  expect,
  expectFlashOnce,
  latestMail,
  linkIn,
  signIn,
  test,
  uniqueEmail,
} from './support.ts';

async function secondDevice(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

test('changes the password with the current one, and other devices lose access', async ({
  page,
  browser,
  signedIn,
}) => {
  const { email, password } = signedIn;
  const other = await secondDevice(browser, email, password);
  await page.goto('/account/security');
  const form = page.getByRole('region', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password').fill('a-newer-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('That is not your current password.')).toBeVisible();
  await form.getByLabel('Current password').fill(password);
  await form.getByLabel('New password').fill('a-newer-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByText('Your password has been changed. Your other devices were signed out.'),
  ).toBeVisible();

  await other.page.reload();
  await expect(other.page).toHaveURL(/\/login\?next=/);
  await other.context.close();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signIn(page, email, 'a-newer-password');
});

test('changes the email once both the old and the new address confirm', async ({ page }) => {
  const { email, password } = await createConfirmedUser('chmail');
  const newEmail = uniqueEmail('newaddr');
  await signIn(page, email, password);
  await page.goto('/account/security');
  const form = page.getByRole('region', { name: 'Change email' });
  await form.getByLabel('Email', { exact: true }).fill(newEmail);
  await form.getByLabel('Current password').fill('not-my-password');
  await page.getByRole('button', { name: 'Change email' }).click();
  await expect(form.getByText('That is not your current password.')).toBeVisible();
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue(newEmail);
  await form.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Change email' }).click();
  await expect(
    page.getByText(`To finish, follow the links we sent to ${email} and to ${newEmail}.`),
  ).toBeVisible();

  await page.goto(linkIn(await latestMail(newEmail, /new email/), '/auth/confirm'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByText(
      'This address is confirmed. Now follow the link we sent to your other address to finish the change.',
    ),
  ).toBeVisible();
  await page.goto(linkIn(await latestMail(email, /new email/), '/auth/confirm'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/account\/security$/);
  await expectFlashOnce(page, 'Your email address has been changed.');
  await expect(page.getByText(newEmail).first()).toBeVisible();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signIn(page, newEmail, password);
});

test('signs out everywhere: a second browser loses access', async ({ page, browser, signedIn }) => {
  const { email, password } = signedIn;
  const other = await secondDevice(browser, email, password);
  await page.goto('/account/security');
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await other.page.reload();
  await expect(other.page).toHaveURL(/\/login\?next=/);
  await other.context.close();
});

test('signs out other devices and stays signed in here', async ({ page, browser, signedIn }) => {
  const { email, password } = signedIn;
  const other = await secondDevice(browser, email, password);
  await page.goto('/account/security');
  await page.getByRole('button', { name: 'Sign out other devices' }).click();
  await expect(page.getByText('Your other devices were signed out.')).toBeVisible();
  await other.page.reload();
  await expect(other.page).toHaveURL(/\/login\?next=/);
  await other.context.close();
  await page.goto('/account');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});
