import { expect, signIn, test } from './support.ts';

test('rename, change the address (a taken one is refused), and delete after typing the name', async ({
  page,
  signedIn: _signedIn,
}) => {
  const slug = `set-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Temporary');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('link', { name: 'Settings' }).click();

  await page.getByLabel('Workspace name').fill('Short-lived');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByLabel('Workspace name')).toHaveValue('Short-lived');

  await page.getByLabel('Address', { exact: true }).fill('northwind');
  await page.getByRole('button', { name: 'Change address' }).click();
  await expect(page.getByText('That address is taken. Try another.')).toBeVisible();
  await expect(page.getByLabel('Address', { exact: true })).toHaveValue('northwind');
  await page.getByLabel('Address', { exact: true }).fill(`${slug}-b`);
  await page.getByRole('button', { name: 'Change address' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}-b/settings$`));

  await page.getByLabel('Type “Short-lived” to confirm').fill('short-lived');
  await page.getByRole('button', { name: 'Delete workspace' }).click();
  await expect(page.getByText('Type “Short-lived” exactly to confirm.')).toBeVisible();
  await page.getByLabel('Type “Short-lived” to confirm').fill('Short-lived');
  await page.getByRole('button', { name: 'Delete workspace' }).click();
  await expect(page).toHaveURL(/\/w$/);
  await expect(page.getByRole('link', { name: /Short-lived/ })).toHaveCount(0);
  expect((await page.goto(`/w/${slug}-b`))?.status()).toBe(404);
});

test('members and viewers cannot open the settings; the owner can', async ({ browser }) => {
  for (const [who, status] of [
    ['grace', 404], // member
    ['linus', 404], // viewer
    ['ada', 200], // owner
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, `${who}@demo.crewboard.test`, 'crewboard-demo');
    expect((await page.goto('/w/northwind/settings'))?.status(), who).toBe(status);
    await context.close();
  }
});
