import type { Page } from '@playwright/test';
import { boardOfTasks, day, expect, hydrated, test, signInAs } from './support.ts';

test.use({ timezoneId: 'UTC' });

/** The titles of the cards on the board, in board order. */
const cards = (page: Page) => page.locator('li[data-task-id] > a');

// Filters are GET parameters: they work without JavaScript, the address can be shared, the columns
// count what matches, and the columns' windows stay as they were.
test('filter the board by assignee, priority, due date and text', async ({ page, javaScriptEnabled }) => {
  // Task n sits in column n mod 4: 1 and 5 "To do", 2 and 6 "In progress", 3 and 7 "Done", 4 and 8
  // "Backlog". Mine: 1 and 2; 2 is high and overdue, 6 is high and due in 3 days.
  const facts: Record<number, Record<string, unknown>> = {
    2: { priority: 'high', due_date: day(-1) },
    6: { priority: 'high', due_date: day(3) },
  };
  const { owner, boardPath, columns } = await boardOfTasks(8, (n, ownerId) => ({
    priority: 'none',
    due_date: null,
    assignee_id: n <= 2 ? ownerId : null,
    ...facts[n],
  }));
  await signInAs(page, owner);
  // A column's window is asked for by its status id.
  await page.goto(`${boardPath}?${columns.todo}=100`);
  await hydrated(page);
  await expect(cards(page)).toHaveCount(8);
  const filters = page.getByRole('search', { name: 'Filter tasks' });
  const apply = async () => {
    // With JavaScript a change applies by itself; without, the form is sent.
    if (!javaScriptEnabled) await filters.getByRole('button', { name: 'Apply filters' }).click();
  };
  const todo = page.getByRole('region', { name: 'To do' });

  await filters.getByLabel('Assignee').selectOption({ label: 'Me' });
  await apply();
  await expect(page).toHaveURL(/assignee=me/);
  await expect(page).toHaveURL(new RegExp(`${columns.todo}=100`));
  await expect(cards(page)).toHaveText(['BAC-1 Task 1', 'BAC-2 Task 2'].map((t) => new RegExp(`^${t}$`)));
  await expect(todo.getByRole('heading')).toHaveText('To do 1 of 2');

  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(cards(page)).toHaveCount(8);
  await expect(page).toHaveURL(new RegExp(`\\?${columns.todo}=100$`));
  await expect(todo.getByRole('heading')).toHaveText('To do 2');
  await expect(filters.getByLabel('Assignee')).toHaveValue('');

  // Text: words of the title, or the number.
  await filters.getByRole('searchbox', { name: 'Search titles' }).fill('task 7');
  if (!javaScriptEnabled) await filters.getByRole('searchbox').press('Enter');
  await expect(cards(page)).toHaveText([/^BAC-7 Task 7$/]);
  await expect(page).toHaveURL(/q=task\+7/);

  // A shared address: priority and due date together.
  await page.goto(`${boardPath}?priority=high&due=overdue`);
  await expect(cards(page)).toHaveText([/^BAC-2 Task 2$/]);
  await expect(filters.getByLabel('Priority')).toHaveValue('high');
  await expect(filters.getByLabel('Due')).toHaveValue('overdue');
  await page.goto(`${boardPath}?due=week`);
  await expect(cards(page)).toHaveText([/^BAC-6 Task 6$/]);
  await page.goto(`${boardPath}?assignee=none&priority=high`);
  await expect(cards(page)).toHaveText([/^BAC-6 Task 6$/]);

  // Nothing matches: the board says so, and how to get back.
  await page.goto(`${boardPath}?q=no+such+task`);
  await expect(cards(page)).toHaveCount(0);
  await expect(page.getByText('No tasks match these filters.')).toBeVisible();
  await page.getByRole('link', { name: 'clear the filters' }).click();
  await expect(cards(page)).toHaveCount(8);
});
