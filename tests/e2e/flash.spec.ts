import { expect, flash, hydrated, test } from './support.ts';

// The message a redirect leaves for the next page (app/utils/flash.server.ts): shown once, as a
// polite status, with JavaScript and without.

test('a change that redirects says so once, in a status message, not in the address', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.goto('/account');
  await hydrated(page);
  await page.getByLabel('Display name').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(/\/account$/);
  const saved = flash(page, 'Saved.');
  await expect(saved).toBeVisible();
  await expect(saved).toHaveCount(1);
  await expect(page.getByLabel('Display name')).toHaveValue('Grace Hopper');

  const dismiss = saved.getByRole('button', { name: 'Dismiss' });
  if (test.info().project.use.javaScriptEnabled === false) {
    // Without JavaScript the button could do nothing, so it is not offered.
    await expect(dismiss).toBeHidden();
  } else {
    await dismiss.click();
    await expect(saved).toBeHidden();
    // A second change brings a new message, although the first one was dismissed.
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(saved).toBeVisible();
  }

  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Grace Hopper');
  await expect(flash(page, 'Saved.')).toHaveCount(0);
  // Nor does it follow to the next page.
  await page.goto('/account/security');
  await expect(flash(page, 'Saved.')).toHaveCount(0);
});

test('a forged flash cookie shows nothing', async ({ page, baseURL, signedIn: _signedIn }) => {
  // What a signed cookie looks like, with a signature that is not the server's.
  const value = encodeURIComponent(
    `${btoa(JSON.stringify({ kind: 'account_deleted' }))}.bm90LWEtc2lnbmF0dXJl`,
  );
  await page.context().addCookies([{ name: 'crewboard_flash', value, url: baseURL ?? '' }]);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(flash(page, 'Your account has been deleted.')).toHaveCount(0);
  // It was cleared, not left to be tried again.
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'crewboard_flash')).toBeUndefined();
});
