import type { Locator } from '@playwright/test';
import { boardOfTasks, clearOfMidnight, day, expect, serviceRest, test, signInAs } from './support.ts';

// Dates are the reader's; the browser says UTC here, and so does a board that has not been told.
test.use({ timezoneId: 'UTC' });

async function isRed(element: Locator): Promise<boolean> {
  const colour = await element.evaluate((e) => getComputedStyle(e).color);
  const [r = 0, g = 0, b = 0] = (colour.match(/\d+/g) ?? []).map(Number);
  return r > g + 80 && r > b + 80;
}

/** What a fact's hover tooltip says (its ::after content), or `none`. */
const tooltip = (element: Locator) => element.evaluate((e) => getComputedStyle(e, '::after').content);

// A card says at a glance who has the task, how urgent it is, when it is due, and how much talk
// and how many files it has: the same on the task panel.
test('cards show the assignee, priority, due date, comments and attachments', async ({ page }) => {
  await clearOfMidnight();
  // Task 1 in "To do", 2 in "In progress", 3 in "Done", 4 in "Backlog".
  // (Rows sent together must name the same fields.)
  const facts: Record<number, Record<string, unknown>> = {
    1: { priority: 'high', due_date: day(-2) },
    2: { priority: 'urgent', due_date: day(3) },
    3: { due_date: day(-5) },
  };
  const { owner, boardPath, workspaceId } = await boardOfTasks(4, (n, ownerId) => ({
    priority: 'none',
    due_date: null,
    assignee_id: n === 1 ? ownerId : null,
    ...facts[n],
  }));
  await serviceRest('PATCH', `profiles?id=eq.${owner.id}`, { display_name: 'Ada Lovelace' });
  const [task1] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `tasks?select=id&workspace_id=eq.${workspaceId}&number=eq.1`,
  );
  const taskId = task1?.id ?? '';
  await serviceRest(
    'POST',
    'comments',
    [1, 2, 3].map((i) => ({
      workspace_id: workspaceId,
      task_id: taskId,
      author_id: owner.id,
      body: `c${i}`,
    })),
  );
  await serviceRest('POST', 'attachments', {
    workspace_id: workspaceId,
    task_id: taskId,
    path: `${workspaceId}/${taskId}/notes.txt`,
    name: 'notes.txt',
    size: 10,
    content_type: 'text/plain',
    uploaded_by: owner.id,
  });

  await signInAs(page, owner);
  await page.goto(boardPath);
  const card = (title: string) => page.locator('li[data-task-id]').filter({ hasText: title });

  const first = card('Task 1');
  await expect(first.getByRole('img', { name: 'Priority: high' })).toBeVisible();
  const overdue = first.locator('time');
  await expect(overdue).toHaveText('2 days overdue');
  await expect(overdue).toHaveAttribute('datetime', day(-2));
  // Overdue is red; a date still ahead is not.
  expect(await isRed(overdue)).toBe(true);
  await expect(first.getByRole('img', { name: '3 comments' })).toHaveText('3');
  await expect(first.getByRole('img', { name: '1 attachment' })).toHaveText('1');
  await expect(first.getByRole('img', { name: 'Ada Lovelace' })).toHaveText('AL');
  // Hovering a fact shows what it means: its accessible name, drawn by CSS (no title is sent twice).
  for (const [name, tip] of [
    ['Priority: high', 'Priority: high'],
    ['3 comments', '3 comments'],
    ['Ada Lovelace', 'Assigned to Ada Lovelace'],
  ]) {
    const fact = first.getByRole('img', { name });
    await expect.poll(() => tooltip(fact)).toBe('none');
    await fact.hover();
    await expect.poll(() => tooltip(fact)).toBe(`"${tip}"`);
  }

  const second = card('Task 2');
  await expect(second.getByRole('img', { name: 'Priority: urgent' })).toBeVisible();
  await expect(second.locator('time')).toHaveText('in 3 days');
  expect(await isRed(second.locator('time'))).toBe(false);
  await expect(second.getByRole('img', { name: /comment|attachment|Ada/ })).toHaveCount(0);
  // A done task's date is no longer a warning; a task with nothing to say shows nothing.
  await expect(card('Task 3').locator('time')).toHaveCount(0);
  await expect(card('Task 4').getByRole('img')).toHaveCount(0);

  // The panel says the same.
  await first.getByRole('link', { name: /Task 1/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task BAC-1' });
  // The line of facts: the one with the due date (the timeline's entries have times of their own).
  const glance = panel.locator('p', { has: page.locator(`time[datetime="${day(-2)}"]`) });
  await expect(glance).toContainText('Ada Lovelace');
  await expect(glance).toContainText('Priority: high');
  await expect(glance.locator('time')).toHaveText('2 days overdue');
  expect(await isRed(glance.locator('time'))).toBe(true);
});
