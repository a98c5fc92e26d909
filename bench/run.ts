// `npm run bench`: performance of the local backend, measured side by side in one run. Absolute
// times drift on shared machines, so every figure that matters is printed as a ratio. The backend
// runs in a process of its own (bench/backend.ts), the app in another (remix-serve): nothing here
// measures a service from inside the process that serves it.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchApp, PROFILED_LOADS, type AppFigures, type Breakdown } from './app.ts';
import { PARTS } from './cpu.ts';
import { startBenchBackend, type BenchBackend } from './backend.ts';
import { benchFunctions } from './functions.ts';
import type { Percentiles } from './browser.ts';
import { benchList, LIST_TASKS, SMALL_TASKS, type ListFigures } from './list.ts';
import { benchLiveBoard, WATCHERS, type LiveFigures } from './live.ts';
import { hasNginx, startNginx } from './nginx.ts';
import { benchInboxCount, type InboxCountFigures } from './inbox-count.ts';
import { benchNotifications, type NotificationFigures } from './notifications.ts';
import { benchSearch, type SearchFigures } from './search.ts';
import { benchTaskPanel, PANEL_COMMENTS, PANEL_HISTORY, type PanelFigures } from './panel.ts';
import { benchStorage } from './storage.ts';
import { realtimeLatency, type Latency } from './realtime.ts';
import { prepareRestTable } from './rest-table.ts';
import { soak } from './soak.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');

function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-bench-'));
  chmodSync(dir, 0o755); // as root, PostgreSQL runs as `postgres` and must enter it
  return dir;
}

const start = (dataDir: string) =>
  startBenchBackend(dataDir, {
    AUTH_RATE_LIMIT_SIGN_IN: '1000000',
    AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000000',
  });

/** Requests per second of `fn` with `concurrency` callers for `count` calls in all. */
async function throughput(
  count: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await fn(next++);
    }),
  );
  return count / ((performance.now() - t0) / 1000);
}

/** Median milliseconds of one REST read by path: `gateway`, `direct`, `relay` and, where installed, `nginx`. */
type RestTimes = { gateway: number; direct: number; relay: number; nginx?: number };

async function restLatency(backend: BenchBackend, urls: Record<string, string>): Promise<RestTimes> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'rest-client.ts'),
      backend.anonKey,
      ...Object.entries(urls).map(([name, url]) => `${name}=${url}`),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`rest-client exited with ${code}`);
  return JSON.parse(out) as RestTimes;
}

/** Starts the bare relay (relay.ts) in front of PostgREST; its URL, and how to stop it. */
async function startRelay(backend: BenchBackend): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'relay.ts'), new URL(backend.postgrestUrl).port],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the relay exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/**
 * The REST rows: three runs of the client (each 2,000 rounds of the paths interleaved), and the run
 * with the median gateway ratio. The relay's ratio is the floor any hop written in Node has on this
 * machine, measured in the same rounds; nginx's, where the machine has it (bench/nginx.ts), what a
 * native proxy doing the gateway's REST job costs here.
 */
async function restRows(backend: BenchBackend): Promise<Row[]> {
  await prepareRestTable(backend);
  const relay = await startRelay(backend);
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  const runs: RestTimes[] = [];
  try {
    if (hasNginx()) nginx = await startNginx(backend);
    const urls: Record<string, string> = {
      gateway: `${backend.apiUrl}/rest/v1`,
      direct: backend.postgrestUrl,
      relay: `${relay.url}/rest/v1`,
      ...(nginx ? { nginx: `${nginx.url}/rest/v1` } : {}),
    };
    for (let i = 0; i < 3; i++) runs.push(await restLatency(backend, urls));
  } finally {
    relay.stop();
    nginx?.stop();
  }
  const ratio = (times: RestTimes) => times.gateway / times.direct;
  runs.sort((a, b) => ratio(a) - ratio(b));
  const rest = runs[1] ?? runs[0]!;
  const against = (name: 'relay' | 'nginx', times: RestTimes) => (times[name] ?? NaN) / times.direct;
  return [
    [
      'REST read, gateway vs PostgREST (median)',
      `${rest.gateway.toFixed(3)} ms vs ${rest.direct.toFixed(3)} ms`,
      `ratio ${ratio(rest).toFixed(3)} (no goal: the gateway only runs locally; median run of 3: ${runs.map((r) => ratio(r).toFixed(3)).join(', ')})`,
    ],
    [
      'REST read, bare Node relay vs PostgREST (same run)',
      `${rest.relay.toFixed(3)} ms vs ${rest.direct.toFixed(3)} ms`,
      `ratio ${against('relay', rest).toFixed(3)}: the floor of any hop written in Node here (runs: ${runs.map((r) => against('relay', r).toFixed(3)).join(', ')})`,
    ],
    nginx
      ? [
          'REST read, nginx as the gateway vs PostgREST (same run)',
          `${(rest.nginx ?? NaN).toFixed(3)} ms vs ${rest.direct.toFixed(3)} ms`,
          `ratio ${against('nginx', rest).toFixed(3)}: a native hop with the key check and CORS (runs: ${runs.map((r) => against('nginx', r).toFixed(3)).join(', ')})`,
        ]
      : [
          'REST read, nginx as the gateway vs PostgREST',
          'not measured',
          'no `nginx` on this machine (Debian: apt-get install nginx-light); a reference row only',
        ],
  ];
}

async function authThroughput(
  backend: BenchBackend,
): Promise<{ signIn: number; refresh: number; health: number }> {
  const headers = {
    apikey: backend.anonKey,
    'content-type': 'application/json',
    'X-Supabase-Api-Version': '2024-01-01',
  };
  const email = `bench-${Date.now()}@example.test`;
  const password = 'bench-password-1';
  await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      ...headers,
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${backend.serviceRoleKey}`,
    },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  const refreshTokens: string[] = [];
  const signIn = await throughput(60, 4, async () => {
    const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password }),
    });
    const body = (await res.json()) as { refresh_token?: string };
    if (!body.refresh_token) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
    refreshTokens.push(body.refresh_token);
  });
  const refresh = await throughput(refreshTokens.length, 4, async (i) => {
    const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ refresh_token: refreshTokens[i] }),
    });
    if (!res.ok) throw new Error(`refresh failed: ${res.status}`);
    await res.arrayBuffer();
  });
  const health = await throughput(600, 4, async () => {
    await (await fetch(`${backend.apiUrl}/auth/v1/health`, { headers })).arrayBuffer();
  });
  return { signIn, refresh, health };
}

/** Vacuums and analyzes the tables the benchmarks filled, so their cleanup does not run later. */
async function settle(backend: BenchBackend): Promise<void> {
  const client = new pg.Client({ connectionString: backend.dbUrl });
  await client.connect();
  try {
    await client.query('vacuum (analyze) public.tasks, public.projects, public.workspaces');
  } finally {
    await client.end();
  }
}

async function startTimes(): Promise<{ cold: number; warm: number }> {
  const dir = scratchDir();
  try {
    const cold = await start(dir);
    await cold.stop();
    const warm = await start(dir);
    await warm.stop();
    return { cold: cold.startedInMs, warm: warm.startedInMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Row = [string, string, string];

function printTable(title: string, rows: Row[]): void {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  console.log(`\n${title}\n`);
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** Where one page load's time goes, board by board: the scale curve from 10 to 5,000 tasks. */
function printScale(scale: Breakdown[]): void {
  const rows: Row[] = scale.map((b) => [
    b.label,
    `${b.totalMs.toFixed(1)} ms`,
    [
      `app CPU ${b.appCpuMs.toFixed(1)} ms`,
      `backend ${b.backendMs.toFixed(1)} ms (${b.calls.map((c) => `${c.name} ${c.ms.toFixed(1)}`).join(', ') || 'none'})`,
      `${kb(b.wireBytes)} sent, ${kb(b.htmlBytes)} HTML`,
    ].join(' · '),
  ]);
  const first = scale[0];
  const last = scale.find((b) => b.label.includes('5,000'));
  if (first && last)
    rows.push([
      '5,000 tasks vs 10 tasks',
      `${(last.totalMs / first.totalMs).toFixed(2)} ×`,
      `500 × the tasks; ${(last.htmlBytes / first.htmlBytes).toFixed(2)} × the HTML`,
    ]);
  printTable(
    `One page load at a time, through a recording proxy (median of ${PROFILED_LOADS}; CPU: mean)`,
    rows,
  );
}

/**
 * Where a load's CPU went in the throughput rounds: a page whose parts together use about all the
 * cores had is bounded by the whole machine, not only by the app's own event loop.
 */
function printUnderLoad(app: AppFigures): void {
  const rows: Row[] = app.underLoad.map(({ label, cpu }) => [
    label,
    `${cpu.machineMs.toFixed(1)} of ${cpu.availableMs.toFixed(1)} ms`,
    [
      ...PARTS.map((part) => `${part} ${cpu.parts[part].toFixed(1)}`),
      ...(cpu.appWaitMs === undefined ? [] : [`app waiting for a core ${cpu.appWaitMs.toFixed(1)}`]),
    ].join(' · '),
  ]);
  // Once both pages keep every core busy, their throughputs stand as their machine times a load do.
  const [board, login] = [app.underLoad[0]?.cpu, app.underLoad[1]?.cpu];
  if (board && login)
    rows.push([
      'demo board vs /login, by machine time',
      `${(login.machineMs / board.machineMs).toFixed(3)}`,
      'the throughput ratio the two tend to as each fills the machine',
    ]);
  printTable(
    `CPU per load in the throughput rounds above (machine busy of what its ${cpus().length} cores had; by process, ms)`,
    rows,
  );
}

function appRows(app: AppFigures): Row[] {
  const perPage = [...app.backendRequestsPerPage].map(([k, n]) => `${n}× ${k}`).join(', ') || 'none';
  const toUser = app.backendRequestsPerPage.get('GET /auth/v1/user') ?? 0;
  return [
    [
      'SSR /account signed in (4 concurrent)',
      `${app.accountRps.toFixed(1)} req/s`,
      `${(app.accountRps / app.healthzRps).toFixed(3)} × /healthz (goal ≥ 0.3)`,
    ],
    ['SSR /healthz (4 concurrent), reference', `${app.healthzRps.toFixed(1)} req/s`, '1 × /healthz'],
    ['backend requests per signed-in page load', perPage, `${toUser} to /auth/v1/user (goal 0)`],
    [
      'SSR board of 1,000 tasks (2 concurrent)',
      `${app.boardRps.toFixed(1)} req/s`,
      `${(app.boardRps / app.boardHealthzRps).toFixed(4)} × /healthz (goal ≥ 0.1)`,
    ],
    [
      'SSR demo board, 40 tasks, signed in (10 concurrent)',
      `${app.demoBoardRps.toFixed(1)} req/s`,
      `${(app.demoBoardRps / app.loginRps).toFixed(3)} × /login (goal ≥ 0.3)`,
    ],
    ['SSR /login (10 concurrent), reference', `${app.loginRps.toFixed(1)} req/s`, '1 × /login'],
    [
      'backend requests per board load',
      [...app.backendRequestsPerBoard].map(([k, n]) => `${n}× ${k}`).join(', '),
      `${[...app.backendRequestsPerBoard.values()].reduce((a, b) => a + b, 0)} in all (goal ≤ 3, none repeated)`,
    ],
    [
      `move_task through REST (median of ${app.moves.count})`,
      `${app.moveTaskMs.toFixed(2)} ms`,
      app.moves.rowsChanged.min === app.moves.rowsChanged.max
        ? `${app.moves.rowsChanged.min} task row changed by each move (measured)`
        : `${app.moves.rowsChanged.min} to ${app.moves.rowsChanged.max} task rows changed per move (measured)`,
    ],
  ];
}

function panelRows(panel: PanelFigures): Row[] {
  const calls = [...panel.backendRequestsPerPanel];
  return [
    [
      `SSR task panel, ${PANEL_COMMENTS} comments + ${PANEL_HISTORY} history entries (10 concurrent)`,
      `${panel.panelRps.toFixed(1)} req/s`,
      `${(panel.panelRps / panel.loginRps).toFixed(3)} × /login, measured beside it`,
    ],
    [
      'SSR /login (10 concurrent), the task panel’s reference',
      `${panel.loginRps.toFixed(1)} req/s`,
      '1 × /login',
    ],
    [
      'SSR task panel, no comments + 1 history entry (10 concurrent)',
      `${panel.plainPanelRps.toFixed(1)} req/s`,
      `${(panel.plainPanelRps / panel.plainLoginRps).toFixed(3)} × /login (${panel.plainLoginRps.toFixed(1)} req/s), measured beside it`,
    ],
    [
      'backend requests per task panel load',
      calls.map(([k, n]) => `${n}× ${k}`).join(', '),
      `${calls.reduce((sum, [, n]) => sum + n, 0)} in all, the board's behind it included`,
    ],
  ];
}

function notificationRows(n: NotificationFigures): Row[] {
  return [
    [
      `comment mentioning 5 on a task 10 watch (${n.notificationsPerComment} notifications), p50 / p95`,
      `${n.notifyingMs.p50.toFixed(2)} / ${n.notifyingMs.p95.toFixed(2)} ms`,
      `${(n.notifyingMs.p50 / n.quietMs.p50).toFixed(2)} × a comment that notifies nobody (p50), measured beside it`,
    ],
    [
      'comment that notifies nobody, p50 / p95 (reference)',
      `${n.quietMs.p50.toFixed(2)} / ${n.quietMs.p95.toFixed(2)} ms`,
      `${n.samples} of each, alternating, one transaction each`,
    ],
  ];
}

function inboxCountRows(n: InboxCountFigures): Row[] {
  return [
    [
      'mention → the unread count on the open board (Chromium), p50 / p95',
      `${n.liveMs.p50.toFixed(0)} / ${n.liveMs.p95.toFixed(0)} ms`,
      `${n.samples} mentions; p95 ${(n.liveMs.p95 / n.countReadMs.p95).toFixed(1)} × the count's own read (p95)`,
    ],
    [
      "the count's read, my_unread_notifications over REST, p50 / p95 (reference)",
      `${n.countReadMs.p50.toFixed(1)} / ${n.countReadMs.p95.toFixed(1)} ms`,
      'what the page asks on each realtime message',
    ],
  ];
}

/** `npm run bench -- notifications`: what notifications cost a comment and how fast the count follows. */
async function notificationsOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    printTable('Crewboard notifications benchmark', [
      ...notificationRows(await benchNotifications(backend)),
      ...inboxCountRows(await benchInboxCount(backend)),
    ]);
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function searchRows(sizes: SearchFigures[]): Row[] {
  return sizes.flatMap((size) =>
    size.cases.map((c): Row => [
      `search, ${size.tasks.toLocaleString('en')} tasks and ${size.comments.toLocaleString('en')} comments: ${c.name}`,
      `${c.searchMs.toFixed(2)} ms (p50), ${c.rows} found`,
      `${(c.searchMs / c.readMs).toFixed(1)} × one task by its primary key (${c.readMs.toFixed(2)} ms), ${size.samples} of each, alternating`,
    ]),
  );
}

/** `npm run bench -- search`: search_tasks at 1,000 and at 100,000 tasks, against a one-task read. */
async function searchOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    printTable('Crewboard search benchmark', searchRows(await benchSearch(backend.dbUrl)));
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench -- panel` measures the task panel's rows alone. */
async function panelOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    const panel = await benchTaskPanel(backend);
    printTable('Crewboard task panel benchmark', panelRows(panel));
    printScale(panel.profiles);
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function listRows(list: ListFigures): Row[] {
  const { ms } = list;
  const n = LIST_TASKS.toLocaleString('en');
  const calls = [...list.backendRequestsPerList].map(([name, count]) => `${count}× ${name}`).join(', ');
  // One load at a time through the recording proxy: the app's CPU, and the backend's time.
  const profiles: Row[] = list.profiles.map((b) => [
    `${b.label}, profiled (median of ${PROFILED_LOADS})`,
    `${b.totalMs.toFixed(1)} ms`,
    `app CPU ${b.appCpuMs.toFixed(1)} ms · backend ${b.backendMs.toFixed(1)} ms · ${kb(b.htmlBytes)} HTML`,
  ]);
  return [
    [
      `list of ${n} tasks vs board of ${n} (median first response)`,
      `${ms.list.toFixed(1)} vs ${ms.board.toFixed(1)} ms`,
      `ratio ${(ms.list / ms.board).toFixed(2)}; ${list.rowsShown} rows drawn, ${Math.round(list.htmlBytes / 1024)} kB of HTML`,
    ],
    [
      `list of ${n} tasks vs list of ${SMALL_TASKS}`,
      `${ms.list.toFixed(1)} vs ${ms.smallList.toFixed(1)} ms`,
      `ratio ${(ms.list / ms.smallList).toFixed(2)} (goal: as quick to open)`,
    ],
    [
      `list of ${n} by due date, latest first, vs board of ${n}`,
      `${ms.listByDueDesc.toFixed(1)} ms`,
      `ratio ${(ms.listByDueDesc / ms.board).toFixed(2)}`,
    ],
    [
      `list of ${n} by assignee vs board of ${n}`,
      `${ms.listByAssignee.toFixed(1)} ms`,
      `ratio ${(ms.listByAssignee / ms.board).toFixed(2)}`,
    ],
    [
      'backend requests per list load',
      `${[...list.backendRequestsPerList.values()].reduce((a, b) => a + b, 0)}`,
      calls,
    ],
    ...profiles,
    ...listBrowserRows(list),
  ];
}

/** The list in Chromium, JavaScript on: time to interactive against /login's, and `j` key to DOM. */
function listBrowserRows({ tti, keys }: ListFigures): Row[] {
  const n = LIST_TASKS.toLocaleString('en');
  const against = (ms: number) => `${(ms / tti.login).toFixed(2)} × /login's`;
  const spread = (p: Percentiles) =>
    `${p.p50.toFixed(1)} / ${p.p95.toFixed(1)} ms${p.missing > 0 ? ` (${p.missing} never shown)` : ''}`;
  return [
    [
      `time to interactive, list of ${n} tasks (Chromium, median)`,
      `${tti.list.toFixed(0)} ms`,
      `${against(tti.list)}; ${(tti.list / tti.board).toFixed(2)} × the board of ${n}'s, loads alternating`,
    ],
    [`time to interactive, board of ${n} tasks (same run)`, `${tti.board.toFixed(0)} ms`, against(tti.board)],
    [
      `time to interactive, list of ${SMALL_TASKS} tasks (same run)`,
      `${tti.smallList.toFixed(0)} ms`,
      `${against(tti.smallList)}; the list of ${n} is ${(tti.list / tti.smallList).toFixed(2)} × it`,
    ],
    ['time to interactive, /login (same run), reference', `${tti.login.toFixed(0)} ms`, "1 × /login's"],
    [
      `j on the list of ${n}: key to the next row focused (p50 / p95)`,
      spread(keys.list),
      `${keys.list.samples} presses from the top; goal < 100 ms`,
    ],
    [
      `j on the list of ${SMALL_TASKS} (p50 / p95)`,
      spread(keys.smallList),
      `${keys.smallList.samples} presses; p95 ${(keys.list.p95 / keys.smallList.p95).toFixed(2)} × it for the list of ${n}`,
    ],
  ];
}

/** `npm run bench -- list`: the list view against the board, on a fresh backend. */
async function listOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    const list = await benchList(backend);
    printTable('Crewboard list view benchmark', listRows(list));
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function realtimeRows(realtime: { one: Latency; fifty: Latency }): Row[] {
  return [
    [
      'new task → the 1 member watching its board (p50 / p95)',
      `${realtime.one.p50.toFixed(1)} / ${realtime.one.p95.toFixed(1)} ms`,
      `${realtime.one.samples} tasks; goal p95 < 50 ms`,
    ],
    [
      'new task → all 50 members watching its board (p50 / p95)',
      `${realtime.fifty.p50.toFixed(1)} / ${realtime.fifty.p95.toFixed(1)} ms`,
      `${realtime.fifty.samples} tasks, interleaved with the above; p95 ${(realtime.fifty.p95 / realtime.one.p95).toFixed(2)} × 1 member (goal p95 < 50 ms)`,
    ],
  ];
}

/** `npm run bench -- app` measures the app's rows alone, in a few minutes. */
async function appOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    const app = await benchApp(backend);
    printTable('Crewboard app benchmarks', appRows(app));
    printScale(app.scale);
    printUnderLoad(app);
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const times = await startTimes();
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    const rest = await restRows(backend);
    const auth = await authThroughput(backend);
    const app = await benchApp(backend);
    const panel = await benchTaskPanel(backend);
    const notifications = await benchNotifications(backend);
    const inboxCount = await benchInboxCount(backend);
    const storage = await benchStorage(backend);
    // The app's boards added 6,000 tasks: vacuum and analyze them now, rather than let autovacuum
    // start on them in the middle of the realtime latencies.
    await settle(backend);
    const realtime = await realtimeLatency(backend);
    const functions = await benchFunctions(backend, projectRoot);
    const rows: Row[] = [
      ...rest,
      [
        'password sign-in (4 concurrent)',
        `${auth.signIn.toFixed(1)} req/s`,
        `${(auth.signIn / auth.health).toFixed(4)} × /health`,
      ],
      [
        'refresh-token grant (4 concurrent)',
        `${auth.refresh.toFixed(1)} req/s`,
        `${(auth.refresh / auth.health).toFixed(4)} × /health`,
      ],
      ['auth /health (4 concurrent), reference', `${auth.health.toFixed(1)} req/s`, '1 × /health'],
      [
        'cold start (initdb, bootstrap, migrations, seed)',
        `${(times.cold / 1000).toFixed(2)} s`,
        `goal < 20 s`,
      ],
      [
        'warm start',
        `${(times.warm / 1000).toFixed(2)} s`,
        `${(times.warm / times.cold).toFixed(2)} × cold (goal < 5 s)`,
      ],
    ];
    rows.push(
      ...appRows(app),
      ...panelRows(panel),
      ...notificationRows(notifications),
      ...inboxCountRows(inboxCount),
    );
    rows.push(
      [
        '10 MB upload through storage (median of 5)',
        `${storage.uploadMs.toFixed(1)} ms`,
        `${(storage.uploadMs / storage.diskWriteMs).toFixed(1)} × streaming it to a file and fsync (${storage.diskWriteMs.toFixed(1)} ms)`,
      ],
      [
        '10 MB download through storage (median of 5)',
        `${storage.downloadMs.toFixed(1)} ms`,
        `${(storage.downloadMs / storage.diskReadMs).toFixed(1)} × streaming it from the file (${storage.diskReadMs.toFixed(1)} ms)`,
      ],
    );
    rows.push(...realtimeRows(realtime));
    rows.push(...listRows(await benchList(backend)));
    rows.push(
      [
        'function, first call after start (empty Deno cache)',
        `${functions.coldEmptyCacheS.toFixed(2)} s`,
        'boots Deno and downloads its npm packages',
      ],
      [
        'function, first call after a reload (cache warm)',
        `${functions.coldCachedS.toFixed(2)} s`,
        'boots Deno (cold start)',
      ],
      [
        'export-tasks warm vs the same reads on PostgREST (median)',
        `${functions.warmFunctionMs.toFixed(2)} ms vs ${functions.warmRestMs.toFixed(2)} ms`,
        `ratio ${(functions.warmFunctionMs / functions.warmRestMs).toFixed(2)}`,
      ],
      [
        `export of ${functions.exportRows.toLocaleString('en')} tasks as CSV`,
        `${Math.round(functions.exportRowsPerS).toLocaleString('en')} rows/s`,
        `function RSS ${functions.rssBeforeMb.toFixed(0)} MB before, ${functions.rssPeakMb.toFixed(0)} MB peak`,
      ],
    );
    printTable('Crewboard local backend benchmarks', rows);
    printScale([...app.scale, ...panel.profiles]);
    printUnderLoad(app);
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench -- realtime`: the realtime rows alone, on a fresh backend. */
async function realtimeOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    const realtime = await realtimeLatency(backend);
    printTable('Crewboard realtime benchmarks', realtimeRows(realtime));
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function liveRows(live: LiveFigures): Row[] {
  const ms = (p: { p50: number; p95: number; missing: number }) =>
    `${p.p50.toFixed(0)} / ${p.p95.toFixed(0)} ms${p.missing > 0 ? ` (${p.missing} never shown)` : ''}`;
  const change = (name: string, figures: LiveFigures['move']): Row[] => [
    [
      `${name} → each of ${WATCHERS} browsers with the board open (p50 / p95)`,
      ms(figures.each),
      `${figures.each.samples} samples; goal p95 ≤ 250 ms; ${figures.reloads.toFixed(2)} board reloads per watcher per change`,
    ],
    [`${name} → the last of the ${WATCHERS} (p50 / p95)`, ms(figures.all), `${figures.all.samples} changes`],
  ];
  return [
    ...change('move (arrow key)', live.move),
    ...change('new task (column form)', live.task),
    ...change('comment (task panel)', live.comment),
    [
      'time to interactive, board of 1,000 tasks (median)',
      `${live.boardTti.toFixed(0)} ms`,
      `${(live.boardTti / live.loginTti).toFixed(2)} × /login's (${live.loginTti.toFixed(0)} ms), loads alternating`,
    ],
    [
      'keyboard move on the board of 1,000 tasks: key to DOM (p50 / p95)',
      ms(live.keyMove),
      `${live.keyMove.samples} moves; goal < 100 ms`,
    ],
  ];
}

/**
 * `npm run bench -- live`: the board in real browsers on the production build — changes by one
 * member reaching 10 others, time to interactive, a keyboard move (bench/live.ts).
 */
async function liveOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    printTable(
      'Crewboard live board benchmark (Chromium, production build)',
      liveRows(await benchLiveBoard(backend)),
    );
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench -- rest`: the REST rows alone, on a fresh backend. */
async function restOnly(): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    printTable('Crewboard REST benchmark', await restRows(backend));
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'app') await appOnly();
else if (process.argv[2] === 'panel') await panelOnly();
else if (process.argv[2] === 'notifications') await notificationsOnly();
else if (process.argv[2] === 'soak') await soak(start, scratchDir, Number(process.argv[3] ?? 15));
else if (process.argv[2] === 'rest') await restOnly();
else if (process.argv[2] === 'realtime') await realtimeOnly();
else if (process.argv[2] === 'list') await listOnly();
else if (process.argv[2] === 'live') await liveOnly();
else if (process.argv[2] === 'search') await searchOnly();
else await main();
