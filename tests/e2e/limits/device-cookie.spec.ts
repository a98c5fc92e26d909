// Nobody can keep an account's owner out by failing on purpose: the browser that signed in before
// carries a device cookie and signs in again while failures from another browser have the account
// refusing everyone else. Against the e2e stack's low-limits app: 3 attempts per account in 5 minutes.
import type { Page } from '@playwright/test';
import { createConfirmedUser, expect, hydrated, signIn, test } from '../support.ts';

const REFUSED = /^Too many attempts\. Try again in \d+ seconds\.$/;

async function tryPassword(page: Page, email: string, password: string): Promise<number> {
  await page.goto('/login');
  await hydrated(page);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const answer = page.waitForResponse((r) => r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Sign in' }).click();
  return (await answer).status();
}

test('the owner signs in again while failures from another browser lock the account', async ({
  page,
  browser,
}) => {
  const { email, password } = await createConfirmedUser('device-owner');
  await signIn(page, email, password);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  const elsewhere = await (await browser.newContext()).newPage();
  const statuses: number[] = [];
  while (!statuses.includes(429) && statuses.length <= 3)
    statuses.push(await tryPassword(elsewhere, email, 'not-the-password'));
  expect(statuses.at(-1)).toBe(429);
  // The right password from that browser is refused too: it has never signed in to the account.
  expect(await tryPassword(elsewhere, email, password)).toBe(429);
  await expect(elsewhere.getByText(REFUSED)).toBeVisible();

  await signIn(page, email, password);
  await expect(page.getByRole('heading', { name: 'Your workspaces' })).toBeVisible();
});
