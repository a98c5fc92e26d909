// The list view at scale: the first response of a project's list of 5,000 tasks against the board of
// the same 5,000, and against the list of a 50-task project, in alternating loads of the same run, one
// request at a time (what a person opening the page waits for); the list is also timed in the sorts
// its indexes do not serve (due date latest first, by assignee), and what one load asks of the backend.
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

export const LIST_TASKS = 5000;
export const SMALL_TASKS = 50;
/** Loads per page and side, alternated: enough for a steady median on a shared machine. */
const LOADS = 30;

export interface ListFigures {
  /** Median milliseconds to the whole answer, by page. */
  ms: Record<'list' | 'board' | 'smallList' | 'listByDueDesc' | 'listByAssignee', number>;
  rowsShown: number;
  htmlBytes: number;
  backendRequestsPerList: Map<string, number>;
  /** Where one load's time goes: the list of 5,000, the board of 5,000, the list of 50. */
  profiles: Breakdown[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** One document load, timed to its last byte; its HTML. */
async function load(url: string, cookie: string): Promise<{ ms: number; html: string }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { Cookie: cookie, Accept: 'text/html' } });
  const html = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { ms, html };
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
    };
  } finally {
    app.child.kill('SIGTERM');
    profiled.child.kill('SIGTERM');
    proxy.close();
  }
}
