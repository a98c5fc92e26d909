// With JavaScript, the new-workspace form's suggested address gives way to one typed by hand.
import { expect, test } from './support.ts';

test('an address typed by hand is kept while the name changes', async ({ page, signedIn: _signedIn }) => {
  await page.goto('/w');
  const slug = `own-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('First');
  await page.getByLabel('Address').fill(slug);
  await page.getByLabel('Workspace name').fill('Second name');
  await expect(page.getByLabel('Address')).toHaveValue(slug);
});
