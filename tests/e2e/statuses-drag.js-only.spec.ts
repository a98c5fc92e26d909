import { boardOfTasks, expect, hydrated, signInAs, statusNames, test } from './support.ts';

// With JavaScript a status can also be dragged to its place in the project's settings (the forms'
// ↑ and ↓ do the same without it). The window is tall enough to show every status: a drag that has
// to scroll the page starts, in Playwright's Chromium, from whatever row the scroll brings under the
// pointer.
test.use({ viewport: { width: 1280, height: 2000 } });

test('drag a status to another place in the list, and the board follows', async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(1);
  await signInAs(page, owner);
  await page.goto(`${boardPath}/settings`);
  await hydrated(page);
  const statuses = page.getByRole('region', { name: 'Statuses' });
  await expect.poll(() => statusNames(page)).toEqual(['Backlog', 'To do', 'In progress', 'Done']);

  const saved = page.waitForResponse(
    (res) => res.request().method() === 'POST' && new URL(res.url()).pathname.endsWith('/settings'),
  );
  await statuses
    .getByRole('img', { name: 'Drag Done to reorder' })
    .dragTo(statuses.getByRole('group', { name: 'Backlog' }));
  await expect.poll(() => statusNames(page)).toEqual(['Done', 'Backlog', 'To do', 'In progress']);
  expect((await saved).status()).toBeLessThan(400);
  await page.reload();
  await expect.poll(() => statusNames(page)).toEqual(['Done', 'Backlog', 'To do', 'In progress']);

  // Saved: a fresh load says the same, and so do the board's columns.
  await page.goto(boardPath);
  await expect(page.locator('section[data-status-id]')).toHaveText([
    /^Done/,
    /^Backlog/,
    /^To do/,
    /^In progress/,
  ]);
});
