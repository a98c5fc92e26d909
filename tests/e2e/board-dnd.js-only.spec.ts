import type { Page } from '@playwright/test';
import { createConfirmedUser, endpoints, expect, projectPath, signIn, test, openNewTask } from './support.ts';

async function boardWithTasks(page: Page, titles: string[]) {
  const { email, password } = await createConfirmedUser('dnd');
  await signIn(page, email, password);
  const slug = `dnd-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Drag test');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Sprint');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Sprint' })).toBeVisible();
  const todo = page.getByRole('region', { name: 'To do' });
  for (const title of titles) {
    await openNewTask(todo);
    await todo.getByLabel('Title').fill(title);
    await todo.getByRole('button', { name: 'Create task' }).click();
    await expect(todo.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  }
  // Nothing below may load a whole page: this marker would be lost.
  await page.evaluate(() => Object.assign(window, { boardMarker: 'still here' }));
  await expect(page).toHaveURL(projectPath(slug, 'SPR'));
  return { slug };
}

const titlesIn = (page: Page, column: string) =>
  page.getByRole('region', { name: column }).getByRole('listitem').getByRole('link');
const noReload = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { boardMarker?: string }).boardMarker)).toBe(
    'still here',
  );
// The board shows moves at once and saves them behind; wait for the saving before reloading.
const saved = (page: Page) => expect(page.getByText('Saving…')).toHaveCount(0);

test('drag and drop within and between columns, saved without a page load', async ({ page }) => {
  await boardWithTasks(page, ['Alpha', 'Bravo', 'Charlie']);
  const card = (title: string) => page.getByRole('listitem').filter({ hasText: title });
  // Grab a card by its blank top-right corner, as a person would, not by its link or controls.
  const grab = { x: 200, y: 6 };

  // Charlie onto the top half of Alpha: it lands above it.
  await card('Charlie').dragTo(card('Alpha'), { sourcePosition: grab, targetPosition: { x: 40, y: 4 } });
  await expect(titlesIn(page, 'To do')).toHaveText([/Charlie/, /Alpha/, /Bravo/]);

  // Alpha into the empty Done column.
  await card('Alpha').dragTo(page.getByRole('region', { name: 'Done' }), { sourcePosition: grab });
  await expect(titlesIn(page, 'Done')).toHaveText([/Alpha/]);
  await expect(titlesIn(page, 'To do')).toHaveText([/Charlie/, /Bravo/]);
  await noReload(page);

  // The server saved exactly that.
  await saved(page);
  await page.reload();
  await expect(titlesIn(page, 'To do')).toHaveText([/Charlie/, /Bravo/]);
  await expect(titlesIn(page, 'Done')).toHaveText([/Alpha/]);
});

test('arrow keys move the focused card, keep focus on it and announce where it went', async ({ page }) => {
  await boardWithTasks(page, ['Alpha', 'Bravo']);
  // A move answers with data, never a redirect: a redirect ends the fetcher before the board is
  // revalidated, and a reload begun before the move was saved could then draw the card back.
  const answers: Promise<string | null>[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'POST') answers.push(response.headerValue('x-remix-redirect'));
  });
  await page.getByRole('button', { name: 'Reorder SPR-2' }).focus();
  await page.keyboard.press('ArrowUp');
  await expect(titlesIn(page, 'To do')).toHaveText([/Bravo/, /Alpha/]);
  await expect(page.getByRole('status')).toHaveText('Moved SPR-2 to To do, position 1 of 2.');
  await page.keyboard.press('ArrowRight');
  await expect(titlesIn(page, 'In progress')).toHaveText([/Bravo/]);
  await expect(page.getByRole('button', { name: 'Reorder SPR-2' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(titlesIn(page, 'Done')).toHaveText([/Bravo/]);
  await expect(page.getByRole('status')).toHaveText('Moved SPR-2 to Done, position 1 of 1.');
  await noReload(page);
  await saved(page);
  // Two or three: a move still waiting its turn is replaced by a newer one of the same card.
  const redirects = await Promise.all(answers);
  expect(redirects.length).toBeGreaterThanOrEqual(2);
  expect(redirects.filter(Boolean)).toEqual([]);
  await page.reload();
  await expect(titlesIn(page, 'Done')).toHaveText([/Bravo/]);
  await expect(titlesIn(page, 'To do')).toHaveText([/Alpha/]);
});

test("a card's menu moves it a step or to another column without a page load, and the panel's move forms are hidden", async ({
  page,
}) => {
  await boardWithTasks(page, ['Alpha', 'Bravo']);
  await page.getByRole('button', { name: 'Actions for SPR-2' }).click();
  await page.getByRole('button', { name: 'Move up' }).click();
  await expect(titlesIn(page, 'To do')).toHaveText([/Bravo/, /Alpha/]);
  await page.getByRole('button', { name: 'Actions for SPR-1' }).click();
  await page.getByRole('button', { name: 'In progress', exact: true }).click();
  await expect(titlesIn(page, 'In progress')).toHaveText([/Alpha/]);
  // The panel's forms are for browsers without JavaScript: here its Status field changes the column.
  await page.getByRole('link', { name: /Alpha/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task SPR-1' });
  await expect(panel.getByRole('heading', { name: 'Alpha' })).toBeVisible();
  await expect(panel.getByLabel('Move SPR-1 to', { exact: true })).toBeHidden();
  await expect(panel.getByRole('button', { name: 'Move SPR-1 up' })).toBeHidden();
  await noReload(page);
});

test('a move the server refuses rolls back and says why', async ({ page }) => {
  const { slug } = await boardWithTasks(page, ['Alpha', 'Bravo']);
  // Someone archives the project while this board is open: the database now refuses every move.
  const { apiUrl, serviceRoleKey } = endpoints();
  const workspace = await fetch(`${apiUrl}/rest/v1/workspaces?select=id&slug=eq.${slug}`, {
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
  });
  const workspaceId = ((await workspace.json()) as Array<{ id: string }>)[0]?.id ?? '';
  const archived = await fetch(`${apiUrl}/rest/v1/projects?workspace_id=eq.${workspaceId}&key=eq.SPR`, {
    method: 'PATCH',
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ archived_at: new Date().toISOString() }),
  });
  expect(archived.status).toBe(204);

  const card = page.getByRole('listitem').filter({ hasText: 'Alpha' });
  await card.dragTo(page.getByRole('region', { name: 'Done' }), { sourcePosition: { x: 200, y: 6 } });
  await expect(page.getByRole('alert')).toHaveText("Couldn't move SPR-1 Alpha: You cannot move this task.");
  await expect(titlesIn(page, 'To do')).toHaveText([/Alpha/, /Bravo/]);
  await expect(titlesIn(page, 'Done')).toHaveCount(0);
  await noReload(page);
});
