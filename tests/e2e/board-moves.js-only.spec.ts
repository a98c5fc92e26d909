// A card's last move is what the board keeps, even when that move is saved while the board is on
// its way to the card: once every move is saved, the board is loaded again (use-moves.ts). A CI run
// once ended with the card in its earlier column (the last move saved, no board load after it); this
// test holds the move and the card's page to make that timing likely, though it did not reproduce
// that failure on demand.
//
// A move comes back to the page that made it through Realtime, and its echo can arrive late: after
// the card's next move, and after the load that followed. The card's version (its row's updated_at)
// says the echo is older than the card drawn, and it is left unapplied (live-apply.ts).
import type { Request, WebSocketRoute } from '@playwright/test';
import { boardOfTasks, expect, hydrated, serviceRest, test, signInAs } from './support.ts';

test('a card moved twice and opened at once stays where it was last put', async ({ page }) => {
  const { owner, boardPath, columns } = await boardOfTasks(2);
  await signInAs(page, owner);
  await page.goto(boardPath);
  await hydrated(page);
  const card = (column: string) =>
    page.getByRole('region', { name: column }).getByRole('link', { name: /^BAC-1 / });
  await expect(card('To do')).toBeVisible();

  // The second move (back to To do) is held on its way to the server, and the card's page longer:
  // the move is saved while the board is on its way to the card.
  let held = 0;
  const boardPathname = new URL(boardPath, 'http://x').pathname;
  await page.route(
    (url) => url.pathname === boardPathname || url.pathname === `${boardPathname}/t/1`,
    async (route) => {
      const request = route.request();
      const body = request.postData() ?? '';
      if (
        request.method() === 'POST' &&
        body.includes('intent=move') &&
        body.includes(`status=${columns.todo}`)
      ) {
        held++;
        await new Promise((resolve) => setTimeout(resolve, 500));
      } else if (request.method() === 'GET' && request.url().includes('/t/1?_data=')) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      await route.continue();
    },
  );

  await page.getByRole('button', { name: 'Reorder BAC-1' }).focus();
  await page.keyboard.press(']');
  await expect(card('In progress')).toBeVisible();
  await expect(page.getByText('Saving…')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Reorder BAC-1' })).toBeFocused();
  await page.keyboard.press('[');
  await expect(card('To do')).toBeVisible();
  await card('To do').click();
  await expect(page).toHaveURL(/\/t\/1$/);
  await expect(page.getByRole('complementary', { name: 'Task BAC-1' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/\/t\/1$/);
  expect(held).toBe(1);

  // Once the move is saved the board shows the card where it was last put, and so does a reload.
  await expect(page.getByText('Saving…')).toBeHidden({ timeout: 10_000 });
  await expect(card('To do')).toBeVisible();
  await page.waitForTimeout(500);
  await expect(card('To do')).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(card('To do')).toBeVisible();
});

test('the echo of a move, heard after the card’s next move is saved and loaded, leaves the card put', async ({
  page,
}) => {
  const { owner, boardPath, columns, workspaceId, projectId } = await boardOfTasks(2);
  await signInAs(page, owner);
  // The page's Realtime messages pass through the test, which holds the echo of the card's move to
  // In progress until the card has moved on and the board has loaded again.
  let echoes: string[] = [];
  const sockets: WebSocketRoute[] = [];
  let taskId = '';
  await page.routeWebSocket(/\/realtime\/v1\/websocket/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      const text = String(message);
      const echo =
        text.includes('"postgres_changes"') &&
        text.includes(`"id":"${taskId}"`) &&
        text.includes(`"status_id":"${columns.in_progress}"`);
      if (echo && taskId) echoes.push(text);
      else ws.send(message);
    });
    sockets.push(ws);
  });
  // The page's requests to the app under way: the moves and the board's loads.
  const underWay = new Set<Request>();
  page.on('request', (r) => {
    if (!r.url().includes('/realtime/') && r.resourceType() === 'fetch') underWay.add(r);
  });
  page.on('requestfinished', (r) => underWay.delete(r));
  page.on('requestfailed', (r) => underWay.delete(r));

  await page.goto(boardPath);
  await hydrated(page);
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  const card = (column: string) =>
    page.getByRole('region', { name: column, exact: true }).getByRole('link', { name: /^BAC-1 / });
  await expect(card('To do')).toBeVisible();
  const [task] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `tasks?select=id&project_id=eq.${projectId}&number=eq.1`,
  );
  taskId = task?.id ?? '';
  expect(taskId).not.toBe('');

  // To In progress: its echo is held. Then back to To do, saved, and the board loaded after it.
  // (Both columns open: an echo that reopened a closed card would reload the board, which hides it.)
  await page.getByRole('button', { name: 'Reorder BAC-1' }).focus();
  await page.keyboard.press(']');
  await expect(card('In progress')).toBeVisible();
  await expect.poll(() => echoes.length).toBe(1);
  await expect(page.getByText('Saving…')).toBeHidden();
  await page.keyboard.press('[');
  await expect(card('To do')).toBeVisible();
  await expect(page.getByText('Saving…')).toBeHidden();
  await expect.poll(() => underWay.size).toBe(0);

  // The late echo, then a new task by someone else: once that shows, the echo has been heard.
  const held = echoes;
  echoes = [];
  for (const text of held) for (const ws of sockets) ws.send(text);
  await serviceRest('POST', 'tasks', {
    workspace_id: workspaceId,
    project_id: projectId,
    status_id: columns.todo,
    title: 'Heard after the echo',
  });
  await expect(
    page.getByRole('region', { name: 'To do', exact: true }).getByText('Heard after the echo'),
  ).toBeVisible();
  await expect(card('To do')).toBeVisible();
  await expect(card('In progress')).toHaveCount(0);
  await page.reload();
  await expect(card('To do')).toBeVisible();
});
