// Changes by others are applied to the open board from what Realtime sends — a move, a new task, a
// comment, on a filtered board a card coming in or going — without the board loading its data
// again, and the board then equals the one a reload shows.
import type { Page } from '@playwright/test';
import {
  accessTokenOf,
  addMember,
  boardOfTasks,
  createConfirmedUser,
  expect,
  hydrated,
  restAs,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

const LIVE = { timeout: 2_000 };

/** Counts the page's requests for the board's own data (its loader run again). */
function boardLoads(page: Page): () => number {
  let loads = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).searchParams.get('_data') === 'routes/w.$workspace.p.$project') loads++;
  });
  return () => loads;
}

/** Each column's name, count and cards as the page shows them. */
function boardText(page: Page): Promise<string[]> {
  return page
    .locator('section[data-status-id]')
    .evaluateAll((columns) => columns.map((c) => (c as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
}

test('a move, a new task and a comment by another member show without reloading the board', async ({
  page,
  browser,
}) => {
  const { owner, boardPath } = await boardOfTasks(8);
  const slug = boardPath.split('/')[2] ?? '';
  const member = await createConfirmedUser('live-apply');
  await addMember(slug, member.id, 'member');

  // The member watches the board; the owner works on it in a browser of their own.
  await signInAs(page, member);
  await page.goto(boardPath);
  const loads = boardLoads(page);
  const ownerPage = await (await browser.newContext()).newPage();
  await signInAs(ownerPage, owner);
  await ownerPage.goto(boardPath);
  await hydrated(ownerPage);
  for (const p of [page, ownerPage]) {
    await expect(p.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  }
  const column = (p: Page, name: string) => p.getByRole('region', { name, exact: true });

  // A move: "Task 1" from To do to In progress, by the keyboard.
  await expect(column(page, 'To do').getByRole('link', { name: /Task 1\b/ })).toBeVisible();
  const card = column(ownerPage, 'To do')
    .locator('[data-task-id]')
    .filter({ hasText: /Task 1\b/ });
  const taskId = (await card.getAttribute('data-task-id')) ?? '';
  await ownerPage.locator(`#handle-${taskId}`).focus();
  await ownerPage.keyboard.press('ArrowRight');
  await expect(column(page, 'In progress').getByRole('link', { name: /Task 1\b/ })).toBeVisible(LIVE);
  await expect(column(page, 'To do').getByRole('link', { name: /Task 1\b/ })).toHaveCount(0);

  // A new task, from the column's form.
  const todo = column(ownerPage, 'To do');
  await todo.getByRole('button', { name: 'Add task' }).click();
  await todo.getByLabel('Title').fill('Book the venue');
  await todo.getByRole('button', { name: 'Create task' }).click();
  await expect(column(page, 'To do').getByRole('link', { name: /Book the venue/ })).toBeVisible(LIVE);

  // A comment on the moved task, from its panel: the card's count on the member's board.
  await column(ownerPage, 'In progress')
    .getByRole('link', { name: /Task 1\b/ })
    .click();
  const panel = ownerPage.getByRole('complementary');
  await panel.getByLabel('Comment', { exact: true }).fill('The venue holds 80.');
  await panel.getByRole('button', { name: 'Add comment' }).click();
  const comments = page.locator(`[data-task-id="${taskId}"]`).getByRole('img', { name: '1 comment' });
  await expect(comments).toBeVisible(LIVE);

  // None of it loaded the board's data again…
  expect(loads()).toBe(0);
  // …and the board is the one a reload shows.
  const live = await boardText(page);
  await page.reload();
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  expect(await boardText(page)).toEqual(live);
});

test('on a filtered board, a matching card moved, one that starts matching and one that stops show without reloading it', async ({
  page,
}) => {
  // Tasks 1-3 are of high priority: 1 in To do, 2 in In progress, 3 in Done; 5 is in To do.
  const { owner, boardPath, projectId, workspaceId, columns } = await boardOfTasks(8, (n) => ({
    priority: n <= 3 ? 'high' : 'none',
  }));
  const slug = boardPath.split('/')[2] ?? '';
  const member = await createConfirmedUser('live-filter');
  await addMember(slug, member.id, 'member');
  const tasks = await serviceRest<Array<{ id: string; title: string }>>(
    'GET',
    `tasks?select=id,title&project_id=eq.${projectId}`,
  );
  const idOf = (title: string) => tasks.find((t) => t.title === title)?.id ?? '';
  // The owner works through the API, as the app does on their behalf.
  const token = await accessTokenOf(owner);
  const change = (title: string, fields: Record<string, unknown>) =>
    restAs(token, 'PATCH', `tasks?id=eq.${idOf(title)}`, fields);

  const filtered = `${boardPath}?priority=high&q=task`;
  await signInAs(page, member);
  // Channels the page joins (the board's, the inbox count's).
  let joins = 0;
  page.on('websocket', (socket) =>
    socket.on('framesent', (frame) => {
      if (String(frame.payload).includes('"phx_join"')) joins++;
    }),
  );
  await page.goto(filtered);
  const loads = boardLoads(page);
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  const cardIn = (name: string, title: string) =>
    page.getByRole('region', { name, exact: true }).getByRole('link', { name: new RegExp(`${title}\\b`) });
  await expect(cardIn('To do', 'Task 1')).toBeVisible();
  await expect(cardIn('To do', 'Task 5')).toHaveCount(0);

  // A matching card moved to another column.
  await change('Task 1', { status_id: columns.in_progress });
  await expect(cardIn('In progress', 'Task 1')).toBeVisible(LIVE);
  await expect(cardIn('To do', 'Task 1')).toHaveCount(0);
  // A card the board did not draw starts matching, moved to another column in the same change.
  await change('Task 5', { priority: 'high', status_id: columns.done });
  await expect(cardIn('Done', 'Task 5')).toBeVisible(LIVE);
  // A matching card stops matching: its title no longer holds the text.
  await change('Task 3', { title: 'Write the agenda' });
  await expect(cardIn('Done', 'Task 3')).toHaveCount(0, LIVE);

  // The board, counts of all and of matching cards included, is the one a load shows now…
  const fresh = await page.context().newPage();
  await fresh.goto(filtered);
  await hydrated(fresh);
  const loaded = await boardText(fresh);
  await expect.poll(() => boardText(page), LIVE).toEqual(loaded);
  // …and none of it loaded the board's data again.
  expect(loads()).toBe(0);

  // A label put on a card is not in a task's row: the board loads its data again, and its channels
  // stay joined through that, so a change right after shows too.
  const joined = joins;
  const [label] = await serviceRest<Array<{ id: string }>>('POST', 'labels', {
    workspace_id: workspaceId,
    name: 'urgent',
    color: 'red',
  });
  await restAs(token, 'POST', 'task_labels', {
    workspace_id: workspaceId,
    task_id: idOf('Task 2'),
    label_id: label?.id,
  });
  await expect.poll(loads, LIVE).toBe(1);
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  await change('Task 2', { status_id: columns.done });
  await expect(cardIn('Done', 'Task 2')).toBeVisible(LIVE);
  expect(joins).toBe(joined);
});
