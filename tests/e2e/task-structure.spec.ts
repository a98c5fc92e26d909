import type { Page } from '@playwright/test';
import { boardOfTasks, expect, hydrated, serviceRest, signInAs, test } from './support.ts';

/** The panel of task `number` of the board, opened at its address. */
async function openPanel(page: Page, boardPath: string, key: string, number: number) {
  await page.goto(`${boardPath}/t/${number}`);
  const panel = page.getByRole('complementary', { name: `Task ${key}-${number}` });
  await expect(panel).toBeVisible();
  await hydrated(page);
  return panel;
}

test('a task gets sub-tasks and is blocked by another; its card shows the progress and the mark', async ({
  page,
}) => {
  const { owner, boardPath, columns, projectId } = await boardOfTasks(3);
  const key = (boardPath.split('/')[4] ?? '').toUpperCase();
  await signInAs(page, owner);

  // Two sub-tasks of task 1, from its panel (the field is emptied after each).
  let panel = await openPanel(page, boardPath, key, 1);
  const subtasks = panel.getByRole('region', { name: /Sub-tasks/ });
  for (const title of ['Write the copy', 'Pick the photos']) {
    await subtasks.getByLabel('New sub-task').fill(title);
    await subtasks.getByRole('button', { name: 'Add sub-task' }).click();
    await expect(subtasks.getByRole('list', { name: 'Sub-tasks' }).getByText(title)).toBeVisible();
    await expect(subtasks.getByLabel('New sub-task')).toHaveValue('');
  }
  await expect(subtasks.getByRole('heading')).toHaveText('Sub-tasks0/2 done');
  const made = await serviceRest<Array<{ id: string; number: number }>>(
    'GET',
    `tasks?select=id,number&title=eq.Write%20the%20copy&status_id=eq.${columns.todo}`,
  );
  expect(made).toHaveLength(1);
  const first = made[0];
  // One of them done (elsewhere): the panel counts it.
  await serviceRest('PATCH', `tasks?id=eq.${first?.id}`, { status_id: columns.done });
  await page.reload();
  await expect(subtasks.getByRole('heading')).toHaveText('Sub-tasks1/2 done');

  // The sub-task's panel links to its parent.
  await subtasks.getByRole('link', { name: `${key}-${first?.number}` }).click();
  panel = page.getByRole('complementary', { name: `Task ${key}-${first?.number}` });
  const parentLine = panel.getByText(`Sub-task of ${key}-1 Task 1`, { exact: true });
  await expect(parentLine).toBeVisible();
  await parentLine.getByRole('link').click();
  await expect(page.getByRole('complementary', { name: `Task ${key}-1` })).toBeVisible();

  await serviceRest('PATCH', `tasks?number=eq.3&project_id=eq.${projectId}`, {
    status_id: columns.in_progress,
  });
  // Task 2 blocked by task 3 (in progress: open); refusals are said beside the key, with what was typed kept.
  panel = await openPanel(page, boardPath, key, 2);
  const links = panel.getByRole('region', { name: 'Links' });
  const addLink = async (type: string, typed: string) => {
    await links.getByLabel('Link type').selectOption({ label: type });
    await links.getByLabel('Task key').fill(typed);
    await links.getByRole('button', { name: 'Add link' }).click();
  };
  await addLink('Blocked by', `${key}-2`);
  await expect(links.getByRole('alert')).toHaveText('A task cannot be linked to itself.');
  await expect(links.getByLabel('Task key')).toHaveValue(`${key}-2`);
  await expect(links.getByLabel('Task key')).toHaveAttribute('aria-invalid', 'true');
  await addLink('Blocked by', `${key}-99`);
  await expect(links.getByRole('alert')).toHaveText(`There is no task ${key}-99 in this workspace.`);
  await addLink('Blocked by', `${key.toLowerCase()}-3`);
  await expect(
    links.getByRole('list', { name: 'Blocked by' }).getByRole('link', { name: `${key}-3` }),
  ).toBeVisible();
  await expect(links.getByLabel('Task key')).toHaveValue('');
  await addLink('Relates to', `${key}-3`);
  await expect(links.getByRole('alert')).toHaveText('These two tasks are already linked.');
  await expect(links.getByLabel('Link type')).toHaveValue('relates');

  // The other side reads it the other way.
  panel = await openPanel(page, boardPath, key, 3);
  await expect(
    panel
      .getByRole('region', { name: 'Links' })
      .getByRole('list', { name: 'Blocks' })
      .getByRole('link', {
        name: `${key}-2`,
      }),
  ).toBeVisible();

  // The board: task 1's progress, task 2's mark (and none on task 3).
  await page.goto(boardPath);
  const card = (number: number) =>
    page.locator('li[data-task-id]').filter({
      has: page.getByRole('link', { name: new RegExp(`^${key}-${number} `, 'i') }),
    });
  await expect(card(1).getByRole('img', { name: '1 of 2 sub-tasks done' })).toHaveText('1/2 done');
  await expect(card(2).getByText('Blocked', { exact: true })).toBeVisible();
  await expect(card(3).getByText('Blocked', { exact: true })).toHaveCount(0);

  // The blocker done: no mark. Open again, and the link removed: no mark either.
  await serviceRest('PATCH', `tasks?number=eq.3&project_id=eq.${projectId}`, {
    status_id: columns.done,
  });
  await page.reload();
  await expect(card(2).getByText('Blocked', { exact: true })).toHaveCount(0);
  await serviceRest('PATCH', `tasks?number=eq.3&project_id=eq.${projectId}`, {
    status_id: columns.in_progress,
  });
  await page.reload();
  await expect(card(2).getByText('Blocked', { exact: true })).toBeVisible();
  panel = await openPanel(page, boardPath, key, 2);
  await panel.getByRole('button', { name: `Remove link: blocked by ${key}-3` }).click();
  await expect(panel.getByRole('region', { name: 'Links' }).getByText('No links.')).toBeVisible();
  await page.goto(boardPath);
  await expect(card(2).getByText('Blocked', { exact: true })).toHaveCount(0);
});
