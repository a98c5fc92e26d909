import type { Page } from '@playwright/test';
import {
  addMember,
  boardOfTasks,
  createConfirmedUser,
  day,
  expect,
  hydrated,
  openNewTask,
  signInAs,
  test,
} from './support.ts';

/** The titles of the cards on the page, in board order. */
const cards = (page: Page) => page.locator('li[data-task-id] > a');

// A filter kept under a name: saved from the board, listed in the sidebar under its project, opened
// at its own address with the filter applied and still adjustable; shared by an admin, seen by a
// teammate. Without JavaScript every step is a form or a link.
test('save a view of the board, open it from the sidebar, share it with a teammate', async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  // Task 2 is the one high-priority task.
  const { owner, boardPath } = await boardOfTasks(4, (n) => ({ priority: n === 2 ? 'high' : 'none' }));
  const slug = boardPath.split('/')[2] ?? '';
  const mate = await createConfirmedUser('saved-views-mate');
  await addMember(slug, mate.id, 'member');
  await signInAs(page, owner);
  await page.goto(boardPath);
  await hydrated(page);
  const filters = page.getByRole('search', { name: 'Filter tasks' });
  await filters.getByLabel('Priority').selectOption('high');
  if (!javaScriptEnabled) await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/priority=high/);
  await expect(cards(page)).toHaveText([/^BAC-2 Task 2$/]);

  const save = async (name: string) => {
    await page.getByText('Save view', { exact: true }).first().click();
    await page.getByLabel('View name').fill(name);
    await page.getByRole('button', { name: 'Save view' }).click();
  };
  await save('High priority');
  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}\?priority=high$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('High priority');
  await expect(cards(page)).toHaveCount(1);

  // A second view of the same name is refused next to the field, with the name kept.
  await save('high PRIORITY');
  const name = page.getByLabel('View name');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText('You already have a view of this project with that name. Try another.'),
  ).toBeVisible();
  await expect(name).toHaveValue('high PRIORITY');

  // Opened from the sidebar, from the plain board: the filter is applied, and can still be changed.
  await page.goto(boardPath);
  await expect(cards(page)).toHaveCount(4);
  const sidebarLink = page
    .getByRole('navigation', { name: 'Projects' })
    .getByRole('link', { name: 'High priority' });
  await sidebarLink.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('High priority');
  await expect(cards(page)).toHaveText([/^BAC-2 Task 2$/]);
  await expect(filters.getByLabel('Priority')).toHaveValue('high');
  await expect(page.getByText('Saved view: only you see it.')).toBeVisible();
  // The board's own forms work on the view's page, and come back to it: a new task (not high, so
  // the view does not show it; the board does, at the end).
  const todo = page.getByRole('region', { name: 'To do' });
  await openNewTask(todo);
  await todo.getByLabel('Title').fill('Made from the view');
  await todo.getByRole('button', { name: 'Create task' }).click();
  await expect(todo.getByLabel('Title')).toHaveValue('');
  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}\?priority=high$/);
  await filters.getByLabel('Due').selectOption('overdue');
  if (!javaScriptEnabled) await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\/views\/.*due=overdue/);
  await expect(page.getByText('No tasks match these filters.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('High priority');

  // The teammate does not see the personal view; once the owner shares it, they do.
  const matePage = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signInAs(matePage, mate);
  await matePage.goto(boardPath);
  const mateSidebar = matePage.getByRole('navigation', { name: 'Projects' });
  await expect(mateSidebar.getByRole('link', { name: 'Backlog grooming' })).toBeVisible();
  await expect(mateSidebar.getByRole('link', { name: /High priority/ })).toHaveCount(0);

  await sidebarLink.click();
  await page.getByRole('button', { name: 'Share with the workspace' }).click();
  await expect(page.getByText('Saved view, shared with the workspace.')).toBeVisible();

  await matePage.reload();
  await mateSidebar.getByRole('link', { name: /High priority/ }).click();
  await expect(matePage.getByRole('heading', { level: 1 })).toHaveText('High priority');
  await expect(cards(matePage)).toHaveText([/^BAC-2 Task 2$/]);
  // A member neither unshares nor deletes a shared view.
  await expect(matePage.getByRole('button', { name: 'Stop sharing' })).toHaveCount(0);
  await expect(matePage.getByRole('button', { name: 'Delete view' })).toHaveCount(0);
  // A view that is not there is a 404, not an error.
  const missing = await matePage.goto(`${boardPath}/views/00000000-0000-4000-8000-000000000000`);
  expect(missing?.status()).toBe(404);
  const malformed = await matePage.goto(`${boardPath}/views/not-a-view`);
  expect(malformed?.status()).toBe(404);
  await matePage.context().close();

  // The owner deletes it: back on the board, and gone from the sidebar.
  await page.getByRole('button', { name: 'Delete view' }).click();
  await expect(page).toHaveURL(new RegExp(`${boardPath}$`));
  await expect(cards(page)).toHaveCount(5);
  await expect(
    page.getByRole('navigation', { name: 'Projects' }).getByRole('link', { name: /High priority/ }),
  ).toHaveCount(0);
});

// A view of the list: saved sorted by due date, opened from the sidebar at its own address, drawn as
// the list in the view's order under the view's name, its sort still adjustable, its forms posting to
// the view, and its tasks opening in the panel over the list.
test('save a sorted view of the list and open it from the sidebar', async ({ page }) => {
  const due: Record<number, string> = { 1: day(7), 2: day(3), 4: day(5) };
  const { owner, boardPath } = await boardOfTasks(4, (n) => ({ due_date: due[n] ?? null }));
  await signInAs(page, owner);
  await page.goto(`${boardPath}/list?sort=due&dir=asc`);
  await hydrated(page);
  const titles = page.locator('tbody tr a[data-row-link]');
  const inOrder = (...numbers: number[]) => numbers.map((n) => new RegExp(`^Task ${n}$`));
  await expect(titles).toHaveText(inOrder(2, 4, 1, 3));
  await page.getByText('Save view', { exact: true }).first().click();
  await page.getByLabel('View name').fill('Due soonest');
  await page.getByRole('button', { name: 'Save view' }).click();
  const viewAddress = /\/views\/[0-9a-f-]{36}\?sort=due&dir=asc&kind=list$/;
  await expect(page).toHaveURL(viewAddress);

  await page.goto(boardPath);
  await page.getByRole('navigation', { name: 'Projects' }).getByRole('link', { name: 'Due soonest' }).click();
  await expect(page).toHaveURL(viewAddress);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Due soonest');
  await expect(page.getByText('Saved view: only you see it.')).toBeVisible();
  await expect(titles).toHaveText(inOrder(2, 4, 1, 3));
  // An address that does not say it is a list (typed, or kept from before) is sent to the list's.
  await page.goto(page.url().replace('&kind=list', ''));
  await expect(page).toHaveURL(viewAddress);
  await expect(titles).toHaveText(inOrder(2, 4, 1, 3));
  await hydrated(page);

  // A bulk edit from the view's page is the list's, answered on the view's page.
  await page.getByRole('checkbox', { name: 'Tick BAC-3' }).check();
  const bulk = page.getByRole('group', { name: 'Change the ticked tasks' });
  await bulk.getByLabel('Priority').selectOption({ label: 'Urgent' });
  await bulk.getByRole('button', { name: 'Apply to ticked tasks' }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 task changed.' })).toBeVisible();
  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}\?/);

  // The sort stays adjustable on the view's address.
  await page.getByRole('columnheader', { name: /Due/ }).getByRole('link').click();
  await expect(page).toHaveURL(/\/views\/[0-9a-f-]{36}\?sort=due&dir=desc&kind=list$/);
  await expect(titles).toHaveText(inOrder(1, 4, 2, 3));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Due soonest');

  // A task opens in the panel over the list.
  await titles.first().click();
  await expect(page.getByRole('complementary', { name: 'Task BAC-1' })).toBeVisible();
  await expect(page).toHaveURL(/\/list\/t\/1\?sort=due&dir=desc$/);
});
