import { expect, expectFlashOnce, test } from './support.ts';

test('changes the display name, with errors next to the field and the typed value kept', async ({
  page,
  signedIn,
}) => {
  const { email } = signedIn;
  await page.goto('/account');
  await expect(page.getByLabel('Display name')).toHaveValue(email.split('@')[0] ?? '');
  const tooLong = 'x'.repeat(51);
  await page.getByLabel('Display name').fill(tooLong);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Use at most 50 characters.')).toBeVisible();
  await expect(page.getByLabel('Display name')).toHaveValue(tooLong);
  await page.getByLabel('Display name').fill('  Ada Lovelace  ');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expectFlashOnce(page, 'Saved.');
  await expect(page.getByLabel('Display name')).toHaveValue('Ada Lovelace');
});

test('shows the initials for a person without a picture, as every other page does', async ({
  page,
  signedIn,
}) => {
  void signedIn;
  await page.goto('/account');
  await page.getByLabel('Display name').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectFlashOnce(page, 'Saved.');
  const picture = page.getByRole('main').getByRole('img', { name: 'Ada Lovelace' });
  await expect(picture).toHaveText('AL');
  await expect(page.getByRole('main').getByText('?', { exact: true })).toHaveCount(0);
});
