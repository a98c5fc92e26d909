import { expect, test } from './support.ts';

// JavaScript only (the no-js project ignores *.js-only.spec.ts): without it a tab changes when reloaded.
test('signing out in one tab signs the other tab out without a reload', async ({
  page,
  context,
  signedIn,
}) => {
  const { email } = signedIn;
  const other = await context.newPage();
  await other.goto('/account');
  await expect(other.getByText(`Signed in as ${email}`)).toBeVisible();
  await other.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(other).toHaveURL(/\/$/);
  await expect(page).toHaveURL(/\/login\?next=%2Fw$/);
});
