import type { Page } from '@playwright/test';
import { boardOfTasks, day, expect, hydrated, signInAs, statusNames, test } from './support.ts';

test.use({ timezoneId: 'UTC' });

/** The board's columns, left to right. */
const columnNames = (page: Page) =>
  page
    .locator('section[data-status-id]')
    .evaluateAll((columns) => columns.map((c) => c.getAttribute('aria-label')));

// A project's own columns, managed in its settings with plain forms (and used on the board by every
// way of moving a card), JavaScript on and off.
test('add "In review", move a card into it, rename it, reorder it, and delete it moving its tasks to Done', async ({
  page,
  javaScriptEnabled,
}) => {
  // Task n sits in column n mod 4: 1 "To do", 2 "In progress", 3 "Done".
  const { owner, boardPath } = await boardOfTasks(3);
  await signInAs(page, owner);
  await page.goto(boardPath);
  await expect.poll(() => columnNames(page)).toEqual(['Backlog', 'To do', 'In progress', 'Done']);

  await page.getByRole('link', { name: 'Project settings' }).click();
  await expect(page.getByRole('heading', { name: 'Backlog grooming: settings' })).toBeVisible();
  await hydrated(page);
  const statuses = page.getByRole('region', { name: 'Statuses' });

  // Added last, with its category; a name already taken (in any letter case) is refused next to the
  // field, with what was typed kept.
  await statuses.getByLabel('New status name').fill('in PROGRESS');
  await statuses.getByRole('button', { name: 'Add status' }).click();
  await expect(statuses.getByText('This project already has a status with that name.')).toBeVisible();
  await expect(statuses.getByLabel('New status name')).toHaveValue('in PROGRESS');
  await statuses.getByLabel('New status name').fill('In review');
  await statuses.getByRole('button', { name: 'Add status' }).click();
  await expect(statuses.getByRole('group', { name: 'In review' })).toBeVisible();
  await statuses.getByRole('button', { name: 'Move In review up' }).click();
  await expect
    .poll(() => statusNames(page))
    .toEqual(['Backlog', 'To do', 'In progress', 'In review', 'Done']);

  await page.getByRole('link', { name: 'Back to the board' }).click();
  await expect
    .poll(() => columnNames(page))
    .toEqual(['Backlog', 'To do', 'In progress', 'In review', 'Done']);
  const review = page.getByRole('region', { name: 'In review' });
  await hydrated(page);
  if (javaScriptEnabled) {
    await page.getByRole('button', { name: 'Actions for BAC-2' }).click();
    await page.getByRole('button', { name: 'In review', exact: true }).click();
  } else {
    await page.getByRole('link', { name: /BAC-2 Task 2/ }).click();
    const panel = page.getByRole('complementary', { name: 'Task BAC-2' });
    await panel.getByLabel('Move BAC-2 to').selectOption({ label: 'In review' });
    await panel.getByRole('button', { name: 'Move', exact: true }).click();
    await panel.getByRole('link', { name: 'Close' }).click();
  }
  await expect(review.getByRole('link', { name: /BAC-2 Task 2/ })).toBeVisible();
  await expect(review.getByRole('heading')).toHaveText('In review 1');

  // Renamed, then moved up past In progress.
  await page.getByRole('link', { name: 'Project settings' }).click();
  const row = statuses.getByRole('group', { name: 'In review' });
  await row.getByLabel('Name').fill('');
  await row.getByRole('button', { name: 'Save In review' }).click();
  await expect(row.getByText('Enter a name.')).toBeVisible();
  await row.getByLabel('Name').fill('Review');
  await row.getByRole('button', { name: 'Save In review' }).click();
  const renamed = statuses.getByRole('group', { name: 'Review' });
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Move Review up' }).click();
  await expect.poll(() => statusNames(page)).toEqual(['Backlog', 'To do', 'Review', 'In progress', 'Done']);

  // Deleting it asks where its task goes.
  await statuses
    .getByRole('group', { name: 'Review' })
    .getByRole('button', { name: 'Delete Review' })
    .click();
  const refused = statuses.getByRole('group', { name: 'Review' });
  await expect(refused.getByText('Choose where its tasks go.')).toBeVisible();
  await refused.getByLabel('Move its 1 task to').selectOption({ label: 'Done' });
  await refused.getByRole('button', { name: 'Delete Review' }).click();
  await expect.poll(() => statusNames(page)).toEqual(['Backlog', 'To do', 'In progress', 'Done']);

  await page.getByRole('link', { name: 'Back to the board' }).click();
  await expect.poll(() => columnNames(page)).toEqual(['Backlog', 'To do', 'In progress', 'Done']);
  const done = page.getByRole('region', { name: 'Done' });
  await expect(done.getByRole('link', { name: /BAC-2 Task 2/ })).toBeVisible();
  await expect(done.getByRole('heading')).toHaveText('Done 2');
});

test('a done task with a past due date is not overdue, on its card or in its panel', async ({ page }) => {
  // Task 1 is to do and task 3 done, both due five days ago.
  const { owner, boardPath } = await boardOfTasks(3, () => ({ due_date: day(-5) }));
  await signInAs(page, owner);
  await page.goto(boardPath);
  const todoCard = page.getByRole('region', { name: 'To do' }).getByRole('listitem');
  const doneCard = page.getByRole('region', { name: 'Done' }).getByRole('listitem');
  await expect(todoCard).toContainText('5 days overdue');
  await expect(doneCard).toHaveCount(1);
  await expect(doneCard).not.toContainText('overdue');

  await doneCard.getByRole('link', { name: /BAC-3/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task BAC-3' });
  await expect(panel).toBeVisible();
  // Its due date (the timeline's entries have times of their own).
  await expect(panel.locator(`time[datetime="${day(-5)}"]`)).toHaveText(/^due /);
  await expect(panel).not.toContainText('overdue');

  // The overdue filter leaves it out too.
  await page.goto(`${boardPath}?due=overdue`);
  await expect(page.getByRole('link', { name: /BAC-1/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /BAC-3/ })).toHaveCount(0);
});
