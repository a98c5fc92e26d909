// Progressive enhancement that removes. Without JavaScript every column shows its
// new-task form and nothing needs a script. With it, those forms are hidden before the first paint
// (the `scripting` media feature, app/tailwind.css) and the same actions are reached through a
// column's "Add task", the shortcuts (`n`, `?`, the card's keys) and a card's "⋯" menu.
import type { Route } from '@playwright/test';
import { boardOfTasks, expect, hydrated, test, signInAs } from './support.ts';

test.beforeEach(async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(4);
  await signInAs(page, owner);
  await page.goto(boardPath);
  await hydrated(page);
});

const js = () => test.info().project.use.javaScriptEnabled !== false;

test('the controls for browsers without JavaScript show only there, and those needing it only with it', async ({
  page,
}) => {
  const columns = page.getByRole('region');
  await expect(columns).toHaveCount(4);
  if (js()) {
    // Hidden from the first paint: the page as served, before any script, already hides them.
    await expect(page.getByLabel('Title', { exact: true })).toHaveCount(4);
    for (const title of await page.getByLabel('Title', { exact: true }).all())
      await expect(title).toBeHidden();
    await expect(page.getByRole('button', { name: 'Create task' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add task' })).toHaveCount(4);
    await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Actions for BAC-1' })).toBeVisible();
    // Before any script has run: the page again, its scripts held back, hides them all the same.
    const held: Route[] = [];
    let holding = true;
    await page.route('**/build/**/*.js', (route) => (holding ? held.push(route) : route.continue()));
    await page.reload({ waitUntil: 'commit' });
    await expect(page.getByRole('button', { name: 'Add task' })).toHaveCount(4);
    for (const title of await page.getByLabel('Title', { exact: true }).all())
      await expect(title).toBeHidden();
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    holding = false;
    for (const route of held) await route.continue();
    await hydrated(page);
  } else {
    for (const title of await page.getByLabel('Title', { exact: true }).all())
      await expect(title).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create task' })).toHaveCount(4);
    await expect(page.getByRole('button', { name: 'Add task' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
  }
});
