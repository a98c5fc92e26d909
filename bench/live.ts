// The board, live, in real browsers: the production build (remix-serve) in Debian's Chromium with
// the tests' flags (playwright.config.ts), JavaScript on.
//
// - Browser to browser: one member moves a card with the keyboard, adds a task with the column's
//   form and comments in the task panel, through the app as a person does; 10 other members, each in
//   a browser context of their own (their own session and socket), have the board open. A sample is
//   the time from the key press or the form's submit in the actor's page to the change in the DOM of
//   one watcher's board (both clocks are the machine's: `performance.timeOrigin + now()`); each
//   change gives 10, and the slowest of the 10 is reported too. Alongside: how many times each
//   watcher's board reloaded its data per change.
// - Time to interactive: from navigation start to React's hydration of the page (root.tsx marks
//   <html data-hydrated>), the board of 1,000 tasks against /login, loads alternating.
// - A keyboard move on that board: from the key's event to the card in its new column in the DOM
//   (the optimistic update, before anything is saved).
import type { Page } from '@playwright/test';
import pg from 'pg';
import { createUser, startApp } from './app.ts';
import type { BenchBackend } from './backend.ts';
import {
  instrumented,
  keyToDom,
  launch,
  percentiles,
  signedInContext,
  timesToInteractive,
  type Bench,
  type Percentiles,
} from './browser.ts';
import { projectPath } from '../app/utils/projects.ts';

export const WATCHERS = 10;
const CHANGES = 25;
const LOADS = 9;
const KEY_MOVES = 12;

export interface LiveFigures {
  move: { each: Percentiles; all: Percentiles; reloads: number };
  task: { each: Percentiles; all: Percentiles; reloads: number };
  comment: { each: Percentiles; all: Percentiles; reloads: number };
  boardTti: number;
  loginTti: number;
  keyMove: Percentiles;
}

/** A workspace of `owner` and `members`, with one project of `count` tasks over its four columns. */
async function project(
  db: pg.Client,
  owner: string,
  members: string[],
  count: number,
): Promise<{ path: string; statuses: string[] }> {
  const slug = `live-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const { rows } = await db.query<{ id: string; key: string; ws: string }>(
    `with me as (select id from auth.users where email = $1),
          ws as (insert into public.workspaces (name, slug, created_by) select 'Live', $2, id from me returning id),
          m as (insert into public.workspace_members (workspace_id, user_id, role) select ws.id, me.id, 'owner' from ws, me),
          p as (insert into public.projects (workspace_id, name) select id, 'Live board' from ws returning id, key, workspace_id)
     select p.id, p.key, p.workspace_id as ws from p`,
    [owner, slug],
  );
  const made = rows[0];
  if (!made) throw new Error('no project');
  await db.query(
    `insert into public.workspace_members (workspace_id, user_id, role)
     select $1, u.id, 'member' from auth.users u where u.email = any ($2::text[])`,
    [made.ws, members],
  );
  const statuses = (
    await db.query<{ id: string }>(
      'select id from public.project_statuses where project_id = $1 order by position, id',
      [made.id],
    )
  ).rows.map((r) => r.id);
  await db.query(
    `insert into public.tasks (workspace_id, project_id, title, description, status_id, priority)
     select $1, $2, 'Task ' || g, 'Description of task ' || g, ($3::uuid[])[1 + g % 4],
            (array['none','low','medium','high','urgent'])[1 + g % 5]::public.task_priority
       from generate_series(1, $4::int) g`,
    [made.ws, made.id, statuses, count],
  );
  return { path: projectPath(slug, made.key), statuses };
}

/** The board's own data requests (a reload of its loader), counted per page. */
function countBoardLoads(page: Page): () => number {
  let loads = 0;
  page.on('request', (request) => {
    const data = new URL(request.url()).searchParams.get('_data');
    if (data === 'routes/w.$workspace.p.$project') loads++;
  });
  return () => loads;
}

/** What a watcher waits for: a card in a column, a card of a title in a column, a card's comment count. */
type Arrival =
  | { kind: 'column'; id: string; to: string }
  | { kind: 'title'; title: string; to: string }
  | { kind: 'comments'; id: string; n: number };

/** Starts waiting, in the page, for `arrival`; the time it comes is then `bench.arrival`. */
function expectArrival(page: Page, arrival: Arrival): Promise<void> {
  return page.evaluate((arrival) => {
    const bench = (window as unknown as { bench: Bench }).bench;
    const columnOf = (card: Element | null | undefined) =>
      card?.closest('section')?.getAttribute('data-status-id');
    bench.arrival = bench.until(() => {
      if (arrival.kind === 'column')
        return columnOf(document.querySelector(`[data-task-id="${arrival.id}"]`)) === arrival.to;
      if (arrival.kind === 'title') {
        const cards = document.querySelectorAll(`section[data-status-id="${arrival.to}"] [data-task-id]`);
        return [...cards].some((card) => card.textContent?.includes(arrival.title));
      }
      const count = document.querySelector(`[data-task-id="${arrival.id}"] .count.comments`);
      return count?.textContent?.trim() === String(arrival.n);
    });
  }, arrival);
}

/** When `arrival` came in the page (the machine's clock, ms), or NaN after 15 s. */
function arrivalIn(page: Page): Promise<number> {
  return page.evaluate(() =>
    Promise.race([
      (window as unknown as { bench: Bench }).bench.arrival,
      new Promise<number>((resolve) => setTimeout(() => resolve(NaN), 15_000)),
    ]),
  );
}

/**
 * One change made by `act` in the actor's page, awaited in every watcher's DOM: each watcher's time
 * from the actor's key press or submit.
 */
async function timeChange(
  actor: Page,
  watchers: Page[],
  arrival: Arrival,
  act: () => Promise<void>,
): Promise<number[]> {
  await Promise.all(watchers.map((page) => expectArrival(page, arrival)));
  await act();
  const arrivals = await Promise.all(watchers.map(arrivalIn));
  const started = await actor.evaluate(() => (window as unknown as { bench: Bench }).bench.startedAt);
  // NaN: it did not come within 15 s.
  return arrivals.map((t) => t - started);
}

/** Waits until the page has nothing being saved, then a moment for its reloads. */
async function settle(page: Page): Promise<void> {
  await page.getByText('Saving…').waitFor({ state: 'hidden', timeout: 15_000 });
  await page.waitForTimeout(500);
}

export async function benchLiveBoard(backend: BenchBackend): Promise<LiveFigures> {
  const app = await startApp(backend.apiUrl, backend.anonKey, backend.serviceRoleKey);
  const browser = await launch();
  const db = new pg.Client({ connectionString: backend.dbUrl });
  await db.connect();
  try {
    const stamp = Date.now().toString(36);
    const actorEmail = `bench-live-actor-${stamp}@example.test`;
    const watcherEmails = Array.from({ length: WATCHERS }, (_, i) => `bench-live-${i}-${stamp}@example.test`);
    for (const email of [actorEmail, ...watcherEmails]) await createUser(backend, email);
    const board = await project(db, actorEmail, watcherEmails, 12);
    const big = await project(db, actorEmail, [], 1000);

    const actor = await (await signedInContext(browser, app.url, actorEmail)).newPage();
    const watchers: Page[] = [];
    const loads: Array<() => number> = [];
    for (const email of watcherEmails) {
      const page = await (await signedInContext(browser, app.url, email)).newPage();
      loads.push(countBoardLoads(page));
      watchers.push(page);
    }
    for (const page of [actor, ...watchers]) {
      await page.goto(`${app.url}${board.path}`);
      await page.locator('header[data-live="live"]').waitFor({ timeout: 30_000 });
    }
    const reloadsSince = () => {
      const before = loads.map((count) => count());
      return () => loads.reduce((sum, count, i) => sum + count() - (before[i] ?? 0), 0) / WATCHERS;
    };

    // Moves: the first "To do" card, to "In progress" and back, by its handle's arrow keys.
    const [, todo = '', doing = ''] = board.statuses;
    const card = actor.locator(`section[data-status-id="${todo}"] [data-task-id]`).first();
    const taskId = (await card.getAttribute('data-task-id')) ?? '';
    const moves: number[][] = [];
    let reloads = reloadsSince();
    for (let i = 0; i < CHANGES; i++) {
      const to = i % 2 === 0 ? doing : todo;
      moves.push(
        await timeChange(actor, watchers, { kind: 'column', id: taskId, to }, async () => {
          await actor.locator(`#handle-${taskId}`).focus();
          await actor.keyboard.press(i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
        }),
      );
      await settle(actor);
    }
    const moveReloads = reloads() / CHANGES;
    console.error(`moves: ${JSON.stringify(percentiles(moves.flat()))}, ${moveReloads} reloads each`);

    // New tasks: the "To do" column's form, filled and sent.
    const column = actor.locator(`section[data-status-id="${todo}"]`);
    const tasks: number[][] = [];
    reloads = reloadsSince();
    for (let i = 0; i < CHANGES; i++) {
      const title = `Live task ${i} ${stamp}`;
      if (!(await column.getByLabel('Title').isVisible())) {
        await column.getByRole('button', { name: 'Add task' }).click();
      }
      await column.getByLabel('Title').fill(title);
      tasks.push(
        await timeChange(actor, watchers, { kind: 'title', title, to: todo }, () =>
          column.getByRole('button', { name: 'Create task' }).click(),
        ),
      );
      await settle(actor);
    }
    const taskReloads = reloads() / CHANGES;
    console.error(`new tasks: ${JSON.stringify(percentiles(tasks.flat()))}, ${taskReloads} reloads each`);

    // Comments: the task panel over the board, the card's count on the watchers' boards.
    await actor.locator(`[data-task-id="${taskId}"] a[href*="/t/"]`).first().click();
    const panel = actor.getByRole('complementary');
    const comments: number[][] = [];
    reloads = reloadsSince();
    for (let i = 1; i <= CHANGES; i++) {
      await panel.getByLabel('Comment', { exact: true }).fill(`Comment ${i}`);
      comments.push(
        await timeChange(actor, watchers, { kind: 'comments', id: taskId, n: i }, () =>
          panel.getByRole('button', { name: 'Add comment' }).click(),
        ),
      );
      await settle(actor);
      // A board that does not follow comments: once is enough to say so.
      if (comments.at(-1)?.every(Number.isNaN)) break;
    }
    const commentReloads = reloads() / comments.length;
    await Promise.all(watchers.map((page) => page.context().close()));

    // Time to interactive: the 1,000-task board against /login, alternating, each load a fresh page.
    const [boardTti = NaN, loginTti = NaN] = await timesToInteractive(
      [
        { context: actor.context(), url: `${app.url}${big.path}` },
        { context: await instrumented(await browser.newContext()), url: `${app.url}/login` },
      ],
      LOADS,
    );

    // A keyboard move on the 1,000-task board: the key's event to the card in its new column.
    const bigPage = await actor.context().newPage();
    await bigPage.goto(`${app.url}${big.path}`);
    await bigPage.locator('header[data-live="live"]').waitFor({ timeout: 30_000 });
    const [, bigTodo = '', bigDoing = ''] = big.statuses;
    const bigCard = bigPage.locator(`section[data-status-id="${bigTodo}"] [data-task-id]`).first();
    const bigId = (await bigCard.getAttribute('data-task-id')) ?? '';
    const keyMoves: number[] = [];
    for (let i = 0; i < KEY_MOVES; i++) {
      const to = i % 2 === 0 ? bigDoing : bigTodo;
      await expectArrival(bigPage, { kind: 'column', id: bigId, to });
      await bigPage.locator(`#handle-${bigId}`).focus();
      keyMoves.push(await keyToDom(bigPage, i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'));
      await settle(bigPage);
    }

    const flat = (samples: number[][]) => percentiles(samples.flat());
    // NaN when any watcher never had it.
    const slowest = (samples: number[][]) => percentiles(samples.map((s) => Math.max(...s)));
    return {
      move: { each: flat(moves), all: slowest(moves), reloads: moveReloads },
      task: { each: flat(tasks), all: slowest(tasks), reloads: taskReloads },
      comment: { each: flat(comments), all: slowest(comments), reloads: commentReloads },
      boardTti,
      loginTti,
      keyMove: percentiles(keyMoves),
    };
  } finally {
    await browser.close();
    await db.end();
    app.child.kill('SIGTERM');
  }
}
