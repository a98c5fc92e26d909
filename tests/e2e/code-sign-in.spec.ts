import type { Page } from '@playwright/test';
import { codeIn, createConfirmedUser, expect, latestMail, linkIn, test } from './support.ts';

async function requestCode(page: Page, email: string) {
  await page.goto('/login/code');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  return latestMail(email, /sign-in code/);
}

test('signs in with the emailed code, which works only once', async ({ page, browser }) => {
  const { email } = await createConfirmedUser('code');
  const code = codeIn(await requestCode(page, email));
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/w$/);

  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto(`/login/code?email=${encodeURIComponent(email)}`);
  await second.getByLabel('Code').fill(code);
  await second.getByRole('button', { name: 'Verify' }).click();
  await expect(second.getByText('That code is not valid or has expired.')).toBeVisible();
  await other.close();
});

test('signs in with the link from the same email', async ({ page }) => {
  const { email } = await createConfirmedUser('link');
  const mail = await requestCode(page, email);
  await page.goto(linkIn(mail, '/auth/v1/verify'));
  await expect(page).toHaveURL(/\/w$/);
  await page.goto('/account');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('a sign-in link opened in another browser asks for the code instead', async ({ page, browser }) => {
  const { email } = await createConfirmedUser('otherbrowser');
  const mail = await requestCode(page, email);
  const fresh = await browser.newContext();
  const elsewhere = await fresh.newPage();
  await elsewhere.goto(linkIn(mail, '/auth/v1/verify'));
  await expect(
    elsewhere.getByText(
      'This link was opened in a different browser. Enter the 6-digit code from the same email instead.',
    ),
  ).toBeVisible();
  await elsewhere.getByRole('link', { name: 'Get a new code' }).click();
  await expect(elsewhere).toHaveURL(/\/login\/code$/);
  await fresh.close();
});

test('an address without an account gets the same next step', async ({ page }) => {
  await page.goto('/login/code');
  await page.getByLabel('Email').fill('nobody-here@example.test');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
});
