import { expect, test } from '@playwright/test';
import { createConfirmedUser, latestMail, linkIn, signIn } from './support.ts';

test('forgot → reset → sign in with the new password', async ({ page }) => {
  const { email, password } = await createConfirmedUser('reset');
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText(`If ${email} has an account, we sent it a link to choose a new password.`),
  ).toBeVisible();

  await page.goto(linkIn(await latestMail(email, /Reset/), '/auth/confirm'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText('Use 8 to 72 characters, and not your email address.')).toBeVisible();
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText('Use 8 to 72 characters, and not your email address.')).toBeVisible();
  await page.getByLabel('New password').fill('a-brand-new-password');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page).toHaveURL(/\/account\?password=changed$/);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signIn(page, email, 'a-brand-new-password');
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
