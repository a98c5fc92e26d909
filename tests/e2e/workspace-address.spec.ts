// The new-workspace form: its hint names this site's host, and the address comes from the name —
// suggested as the name is typed with JavaScript, derived by the server when left empty without it.
import { expect, test } from './support.ts';

test('the address comes from the name, and the hint names this site', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.goto('/w');
  const host = new URL(page.url()).host;
  await expect(page.getByText(`${host}/w/your-address`)).toBeVisible();
  await expect(page.getByText('crewboard.app')).toHaveCount(0);

  const suffix = Date.now().toString(36);
  await page.getByLabel('Workspace name').fill(`Café Crew ${suffix}`);
  const js = test.info().project.use.javaScriptEnabled !== false;
  // With JavaScript the address is suggested as the name is typed; without, it stays empty.
  await expect(page.getByLabel('Address')).toHaveValue(js ? `cafe-crew-${suffix}` : '');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/cafe-crew-${suffix}$`));
});
