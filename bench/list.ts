// The list view at scale: the first response of a project's list of 5,000 tasks against the board of
// the same 5,000, and against the list of a 50-task project, in alternating loads of the same run, one
// request at a time (what a person opening the page waits for); the list is also timed in the sorts
// its indexes do not serve (due date latest first, by assignee), and what one load asks of the backend.
//
// Then the same pages in Chromium, JavaScript on (bench/browser.ts): the time to interactive of the
// list of 5,000, of the board of the same 5,000 and of the list of 50 against /login's, loads
// alternating; and, on each list, `j` moving the focus down its rows: from the key's event to the
// next row's link focused.
import type { BrowserContext } from '@playwright/test';
import pg from 'pg';
import {
  bigBoard,
  breakdown,
  countingProxy,
  createUser,
  PROFILED_LOADS,
  requestsPerSecond,
  signInCookie,
  startApp,
  type Breakdown,
} from './app.ts';
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

export const LIST_TASKS = 5000;
export const SMALL_TASKS = 50;
/** Loads per page and side, alternated: enough for a steady median on a shared machine. */
const LOADS = 30;
/** Page loads of each side for the time to interactive, after a first that warms. */
const TTI_LOADS = 9;
/**
 * `j` presses on each list, from the top: more than a screenful, so most scroll, and fewer than the
 * list of 50's rows and than the first window of the list of 5,000 (its "Show more" link stays out
 * of view, and no more rows load).
 */
const KEY_PRESSES = 45;

export interface ListFigures {
  /** Median milliseconds to the whole answer, by page. */
  ms: Record<'list' | 'board' | 'smallList' | 'listByDueDesc' | 'listByAssignee', number>;
  rowsShown: number;
  htmlBytes: number;
  backendRequestsPerList: Map<string, number>;
  /** Where one load's time goes: the list of 5,000, the board of 5,000, the list of 50. */
  profiles: Breakdown[];
  /** In Chromium: median milliseconds from navigation start to hydration, by page. */
  tti: Record<'list' | 'board' | 'smallList' | 'login', number>;
  /** In Chromium: a `j` press to the next row focused, by list. */
  keys: Record<'list' | 'smallList', Percentiles>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** `j` pressed `presses` times from the top of the list at `url`: each press's key to DOM. */
async function rowKeys(context: BrowserContext, url: string, presses: number): Promise<number[]> {
  const page = await context.newPage();
  await page.goto(url);
  // Connected: the live state's changes on load are over.
  await page.locator('header[data-live="live"]').waitFor({ timeout: 30_000 });
  const times: number[] = [];
  for (let row = 0; row < presses; row++) {
    await page.evaluate((row) => {
      const bench = (window as unknown as { bench: Bench }).bench;
      bench.arrival = bench.until(
        () => document.activeElement === document.querySelectorAll('a[data-row-link]')[row],
      );
    }, row);
    times.push(await keyToDom(page, 'j'));
  }
  await page.close();
  return times;
}

/** One document load, timed to its last byte; its HTML. */
async function load(url: string, cookie: string): Promise<{ ms: number; html: string }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { Cookie: cookie, Accept: 'text/html' } });
  const html = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { ms, html };
}

/** The browser's figures of the pages at `urls`, read as `email`. */
async function inChromium(
  appUrl: string,
  email: string,
  urls: Record<'list' | 'board' | 'smallList', string>,
): Promise<Pick<ListFigures, 'tti' | 'keys'>> {
  const browser = await launch();
  try {
    const signedIn = await signedInContext(browser, appUrl, email);
    const [list = NaN, board = NaN, smallList = NaN, login = NaN] = await timesToInteractive(
      [
        { context: signedIn, url: urls.list },
        { context: signedIn, url: urls.board },
        { context: signedIn, url: urls.smallList },
        { context: await instrumented(await browser.newContext()), url: `${appUrl}/login` },
      ],
      TTI_LOADS,
    );
    return {
      tti: { list, board, smallList, login },
      keys: {
        list: percentiles(await rowKeys(signedIn, urls.list, KEY_PRESSES)),
        smallList: percentiles(await rowKeys(signedIn, urls.smallList, KEY_PRESSES)),
      },
    };
  } finally {
    await browser.close();
  }
}

export async function benchList(backend: BenchBackend): Promise<ListFigures> {
  const app = await startApp(backend.apiUrl, backend.anonKey, backend.serviceRoleKey);
  const proxy = await countingProxy(backend.apiUrl);
  const profiled = await startApp(proxy.url, backend.anonKey, backend.serviceRoleKey);
  try {
    const email = `bench-list-${Date.now()}@example.test`;
    await createUser(backend, email);
    const big = await bigBoard(backend, email, LIST_TASKS);
    const small = await bigBoard(backend, email, SMALL_TASKS);
    // Due dates on two tasks of three and an assignee on half, so the sorts have missing values to
    // put last, as a real project's do.
    const client = new pg.Client({ connectionString: backend.dbUrl });
    await client.connect();
    try {
      await client.query(
        `update public.tasks t
            set due_date = case when t.number % 3 <> 0 then current_date + (t.number % 90) end,
                assignee_id = case when t.number % 2 = 0 then (select id from auth.users where email = $2) end
          where t.project_id = any ($1)`,
        [[big.project, small.project], email],
      );
      await client.query('analyze public.tasks');
    } finally {
      await client.end();
    }
    const cookie = await signInCookie(app.url, email, 'bench-password-1');
    const list = (boardPath: string) => `${app.url}${boardPath}/list`;
    const urls = {
      list: list(big.path),
      board: `${app.url}${big.path}`,
      smallList: list(small.path),
      listByDueDesc: `${list(big.path)}?sort=due&dir=desc`,
      listByAssignee: `${list(big.path)}?sort=assignee&dir=asc`,
    };
    // Warm: the JIT, the connections, each page's first plan.
    for (const url of Object.values(urls)) await requestsPerSecond(url, cookie, 10, 1);
    const times = Object.fromEntries(Object.keys(urls).map((k) => [k, [] as number[]])) as Record<
      keyof typeof urls,
      number[]
    >;
    let html = '';
    for (let i = 0; i < LOADS; i++) {
      for (const [name, url] of Object.entries(urls) as Array<[keyof typeof urls, string]>) {
        const loaded = await load(url, cookie);
        times[name].push(loaded.ms);
        if (name === 'list') html = loaded.html;
      }
    }
    const rowsShown = html.match(/data-row-link/g)?.length ?? 0;
    if (rowsShown === 0 || !html.includes(`${LIST_TASKS} tasks`))
      throw new Error(`the list of ${LIST_TASKS} tasks shows ${rowsShown} rows and does not say how many`);

    const profiledCookie = await signInCookie(profiled.url, email, 'bench-password-1');
    const profiledList = `${profiled.url}${new URL(urls.list).pathname}`;
    await requestsPerSecond(profiledList, profiledCookie, 3, 1);
    proxy.calls.length = 0;
    await requestsPerSecond(profiledList, profiledCookie, 1, 1);
    const backendRequestsPerList = proxy.counts();
    const pathOf = (url: string) => {
      const { pathname, search } = new URL(url);
      return `${pathname}${search}`;
    };
    const profiles = [
      await breakdown(
        `list of ${LIST_TASKS.toLocaleString('en')} tasks`,
        profiled,
        proxy,
        pathOf(urls.list),
        profiledCookie,
        PROFILED_LOADS,
      ),
      await breakdown(
        `board of ${LIST_TASKS.toLocaleString('en')} tasks`,
        profiled,
        proxy,
        pathOf(urls.board),
        profiledCookie,
        PROFILED_LOADS,
      ),
      await breakdown(
        `list of ${SMALL_TASKS} tasks`,
        profiled,
        proxy,
        pathOf(urls.smallList),
        profiledCookie,
        PROFILED_LOADS,
      ),
    ];

    // In Chromium, with the list's own app (not the recording proxy's).
    const { tti, keys } = await inChromium(app.url, email, urls);
    return {
      ms: {
        list: median(times.list),
        board: median(times.board),
        smallList: median(times.smallList),
        listByDueDesc: median(times.listByDueDesc),
        listByAssignee: median(times.listByAssignee),
      },
      rowsShown,
      htmlBytes: html.length,
      backendRequestsPerList,
      profiles,
      tti,
      keys,
    };
  } finally {
    app.child.kill('SIGTERM');
    profiled.child.kill('SIGTERM');
    proxy.close();
  }
}
