import { addMember, createConfirmedUser, expect, signIn, test, openNewTask, signInAs } from './support.ts';

// Live updates arrive without reloading: each expectation allows 2 seconds, the product's promise.
const LIVE = { timeout: 2_000 };

test('two members on one board: moves, edits and comments show up for the other, with presence', async ({
  page,
  browser,
}) => {
  const owner = await createConfirmedUser('live-owner');
  const member = await createConfirmedUser('live-member');
  await signInAs(page, owner);
  const slug = `live-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Live');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Now');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Now' })).toBeVisible();
  const boardUrl = page.url();
  await addMember(slug, member.id, 'member');

  const memberPage = await (await browser.newContext()).newPage();
  await signIn(memberPage, member.email, member.password);
  await memberPage.goto(boardUrl);
  await memberPage.evaluate(() => Object.assign(window, { liveMarker: true }));

  // Presence: each sees the other (display names default to the email's local part).
  const ownerName = owner.email.split('@')[0] ?? '';
  const memberName = member.email.split('@')[0] ?? '';
  await expect(memberPage.getByLabel('Also on this board')).toContainText(ownerName, { timeout: 5_000 });
  await expect(page.getByLabel('Also on this board')).toContainText(memberName, { timeout: 5_000 });

  // Both boards listen to the database (Realtime has confirmed it) before anything changes.
  await expect(memberPage.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');

  // A task created by the owner appears on the member's board.
  const todo = page.getByRole('region', { name: 'To do' });
  await openNewTask(todo);
  await todo.getByLabel('Title').fill('Order the banners');
  await todo.getByRole('button', { name: 'Create task' }).click();
  const memberTodo = memberPage.getByRole('region', { name: 'To do' });
  await expect(memberTodo.getByRole('link', { name: /Order the banners/ })).toBeVisible(LIVE);

  // The owner moves it; the member sees it change column.
  await page.getByRole('button', { name: 'Reorder NOW-1' }).focus();
  await page.keyboard.press('ArrowRight');
  const memberInProgress = memberPage.getByRole('region', { name: 'In progress' });
  await expect(memberInProgress.getByRole('link', { name: /Order the banners/ })).toBeVisible(LIVE);

  // The member opens the task; the owner renames it and comments; the member's panel follows.
  await memberInProgress.getByRole('link', { name: /Order the banners/ }).click();
  const memberPanel = memberPage.getByRole('complementary', { name: 'Task NOW-1' });
  await expect(memberPanel).toHaveAttribute('data-live', 'live');
  await page
    .getByRole('region', { name: 'In progress' })
    .getByRole('link', { name: /Order the banners/ })
    .click();
  const ownerPanel = page.getByRole('complementary', { name: 'Task NOW-1' });
  await ownerPanel.getByRole('link', { name: 'Edit', exact: true }).click();
  await ownerPanel.getByLabel('Title').fill('Order the banners and flags');
  await ownerPanel.getByRole('button', { name: 'Save task' }).click();
  await expect(memberInProgress.getByRole('link', { name: /Order the banners and flags/ })).toBeVisible(LIVE);
  await ownerPanel.getByLabel('Comment', { exact: true }).fill('Printer needs the files by Tuesday.');
  await ownerPanel.getByRole('button', { name: 'Add comment' }).click();
  await expect(memberPanel.getByText('Printer needs the files by Tuesday.')).toBeVisible(LIVE);

  // None of it reloaded the member's page.
  expect(await memberPage.evaluate(() => (window as unknown as { liveMarker?: boolean }).liveMarker)).toBe(
    true,
  );

  // Leaving the board leaves the other's presence list.
  await memberPage.close();
  await expect(page.getByLabel('Also on this board')).toHaveCount(0, { timeout: 5_000 });
});
