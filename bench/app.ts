// App benchmarks: SSR throughput of a signed-in page against /healthz, and what one signed-in page
// load asks of the backend. The app runs as in production (remix-serve). What /login ships is not
// timing but a size, and a test: tests/http/app.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import type { BenchBackend } from './backend.ts';
import { CpuMeter, cpuMs, type CpuPerLoad } from './cpu.ts';
import { freePort } from '../emulator/lib/net.ts';
import { projectPath } from '../app/utils/projects.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');

/** One backend request a page load made: what it asked and how long the app waited for its answer. */
export interface BackendCall {
  name: string;
  ms: number;
}

/**
 * Forwards to the backend and records each request (method, path, time to the end of its answer), so
 * a page load's backend traffic is visible. Used by the app instance that is profiled, never by the
 * one whose throughput is measured: the extra hop would cost it.
 */
export async function countingProxy(
  target: string,
): Promise<{ url: string; calls: BackendCall[]; counts: () => Map<string, number>; close: () => void }> {
  const calls: BackendCall[] = [];
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const t0 = performance.now();
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    res.on('finish', () => calls.push({ name: `${req.method} ${pathname}`, ms: performance.now() - t0 }));
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const counts = () => {
    const map = new Map<string, number>();
    for (const call of calls) map.set(call.name, (map.get(call.name) ?? 0) + 1);
    return map;
  };
  return { url: `http://127.0.0.1:${port}`, calls, counts, close: () => server.close() };
}

/**
 * The arguments `npm start` gives Node (package.json: `node <flags> <remix-serve> <build>`), so the app
 * measured here runs as it does in production, Node's flags included, in a process whose CPU is its own.
 */
function startArguments(): string[] {
  const manifest: unknown = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
  const scripts = typeof manifest === 'object' && manifest !== null ? Reflect.get(manifest, 'scripts') : null;
  const start = typeof scripts === 'object' && scripts !== null ? Reflect.get(scripts, 'start') : null;
  const [command, ...args] = typeof start === 'string' ? start.trim().split(/\s+/) : [];
  if (command !== 'node') throw new Error('bench/app.ts expects `npm start` to be `node …`');
  return args;
}

export async function startApp(
  supabaseUrl: string,
  anonKey: string,
  serviceRoleKey: string,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, startArguments(), {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      SUPABASE_URL: supabaseUrl,
      SUPABASE_ANON_KEY: anonKey,
      SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
      // A production start needs it; any 32 characters do for a benchmark.
      SESSION_SECRET: 'crewboard-bench-session-secret-of-32-chars',
    },
    stdio: 'ignore',
  });
  const url = `http://localhost:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the app did not start');
}

/** Requests per second with `concurrency` connections for `count` requests in all, every answer a 200. */
export async function requestsPerSecond(
  url: string,
  cookie: string,
  count: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const res = await fetch(url, { headers: { Cookie: cookie } });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  return count / ((performance.now() - t0) / 1000);
}

/** One side of a side-by-side ratio: a timed run of page loads, and how to make them untimed. */
interface Side {
  /** Makes the loads and returns their throughput (requests per second). */
  run: () => Promise<number>;
  /** Runs `run` timed: by default `run` itself; a CPU meter's `measure` around it to count their CPU too. */
  timed?: (run: () => Promise<number>) => Promise<number>;
}

/**
 * Two throughputs measured in alternating rounds, so both see the same machine load; returns each
 * one's mean over the rounds. Each side first runs one round untimed: the first few hundred loads of
 * a page run code the JIT has not compiled yet (measured: the demo board's first round of 150 loads
 * cost the app 11.3 ms a load, later rounds 6.2–8.9 ms), and a page with more code takes longer to
 * warm, so a cold first round would count warm-up against the heavier page.
 */
export async function sideBySide(rounds: number, a: Side, b: Side): Promise<[number, number]> {
  await a.run();
  await b.run();
  const timedA = () => (a.timed ? a.timed(a.run) : a.run());
  const timedB = () => (b.timed ? b.timed(b.run) : b.run());
  let sumA = 0;
  let sumB = 0;
  for (let round = 0; round < rounds; round++) {
    sumA += await timedA();
    sumB += await timedB();
  }
  return [sumA / rounds, sumB / rounds];
}

/** One page fetched as a browser would (compressed), counting the bytes that cross the wire. */
function fetchRaw(url: string, cookie: string): Promise<{ status: number; wire: number; html: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { Cookie: cookie, 'Accept-Encoding': 'br, gzip', Accept: 'text/html' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const html =
            encoding === 'br'
              ? zlib.brotliDecompressSync(body)
              : encoding === 'gzip'
                ? zlib.gunzipSync(body)
                : body;
          resolve({ status: res.statusCode ?? 0, wire: body.length, html: html.length });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

export interface Breakdown {
  label: string;
  /** Median time to the last byte, one request at a time. */
  totalMs: number;
  /** The app process's CPU per request (mean). */
  appCpuMs: number;
  /** Time the app's backend requests took per page load, summed (median). */
  backendMs: number;
  /** Each backend request of one page load, with its median time. */
  calls: BackendCall[];
  wireBytes: number;
  htmlBytes: number;
}

/** Where one page load's time goes: `count` loads one after another through the profiled app. */
export async function breakdown(
  label: string,
  app: { url: string; child: ChildProcess },
  proxy: { calls: BackendCall[] },
  path: string,
  cookie: string,
  count: number,
): Promise<Breakdown> {
  for (let i = 0; i < 3; i++) await fetchRaw(`${app.url}${path}`, cookie);
  const totals: number[] = [];
  const perCall = new Map<string, number[]>();
  const waits: number[] = [];
  let last = { wire: 0, html: 0 };
  const cpu0 = cpuMs(app.child.pid ?? 0);
  for (let i = 0; i < count; i++) {
    proxy.calls.length = 0;
    const t0 = performance.now();
    const res = await fetchRaw(`${app.url}${path}`, cookie);
    totals.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    last = res;
    for (const call of proxy.calls) perCall.set(call.name, [...(perCall.get(call.name) ?? []), call.ms]);
    waits.push(proxy.calls.reduce((sum, call) => sum + call.ms, 0));
  }
  const appCpuMs = (cpuMs(app.child.pid ?? 0) - cpu0) / count;
  return {
    label,
    totalMs: median(totals),
    appCpuMs,
    backendMs: median(waits),
    calls: [...perCall].map(([name, times]) => ({
      name: `${Math.round(times.length / count)}× ${name}`,
      ms: median(times),
    })),
    wireBytes: last.wire,
    htmlBytes: last.html,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function createUser(backend: BenchBackend, email: string): Promise<void> {
  await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${backend.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email, password: 'bench-password-1', email_confirm: true }),
  });
}

export async function signInCookie(appUrl: string, email: string, password: string): Promise<string> {
  const host = new URL(appUrl).host;
  const res = await fetch(`${appUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      Origin: appUrl,
      Host: host,
      'Sec-Fetch-Site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ email, password }),
  });
  if (res.status !== 302 && res.status !== 303) throw new Error(`signing in ${email} answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** A workspace owned by `email` with one project of `count` tasks: the board's path and project id. */
export async function bigBoard(
  backend: BenchBackend,
  email: string,
  count: number,
): Promise<{ path: string; project: string }> {
  const client = new pg.Client({ connectionString: backend.dbUrl });
  await client.connect();
  try {
    const slug = `bench-${count}-${Date.now().toString(36)}`;
    const { rows } = await client.query<{ project: string; key: string }>(
      `with me as (select id from auth.users where email = $1),
            ws as (insert into public.workspaces (name, slug, created_by) select 'Bench', $2, id from me returning id),
            m as (insert into public.workspace_members (workspace_id, user_id, role) select ws.id, me.id, 'owner' from ws, me),
            p as (insert into public.projects (workspace_id, name) select id, 'Big board' from ws returning id, key, workspace_id)
       select id as project, key from p`,
      [email, slug],
    );
    const project = rows[0]?.project ?? '';
    const key = rows[0]?.key ?? '';
    await client.query(
      `insert into public.tasks (workspace_id, project_id, title, description, status_id, priority)
       select p.workspace_id, p.id, 'Task ' || g, 'Description of task ' || g,
              (array(select s.id from public.project_statuses s where s.project_id = $1 order by s.position))[1 + g % 4],
              (array['none','low','medium','high','urgent'])[1 + g % 5]::public.task_priority
         from public.projects p, generate_series(1, $2::int) g where p.id = $1`,
      [project, count],
    );
    return { path: projectPath(slug, key), project };
  } finally {
    await client.end();
  }
}

export interface AppFigures {
  accountRps: number;
  healthzRps: number;
  backendRequestsPerPage: Map<string, number>;
  boardRps: number;
  boardHealthzRps: number;
  demoBoardRps: number;
  loginRps: number;
  backendRequestsPerBoard: Map<string, number>;
  /** The board at 10, 100, 1,000 and 5,000 tasks, and the demo board, profiled one load at a time. */
  scale: Breakdown[];
  moveTaskMs: number;
  /** How many moves were timed, and the fewest and most of the board's task rows one of them changed. */
  moves: { count: number; rowsChanged: { min: number; max: number } };
  /**
   * Where a load's CPU went in the throughput rounds of the two signed-in pages and their references:
   * the demo board first, then /login, /account and /healthz.
   */
  underLoad: { label: string; cpu: CpuPerLoad }[];
}

/**
 * Loads per profiled page: the app's CPU is read from /proc in 10 ms ticks, so a page of about
 * 10 ms needs tens of loads for a steady mean.
 */
export const PROFILED_LOADS = 40;

/**
 * Alternating rounds per side-by-side ratio: more rounds, less of a shared machine's noise. On this
 * machine one round's ratio alone ranges about ±15 % around the mean (demo board against /login,
 * 14 rounds: 0.28–0.39).
 */
export const ROUNDS = 8;

/** The value of the Supabase session's cookie in a Cookie header that may carry others too. */
function sessionCookie(header: string): string {
  const session = header.split('; ').find((pair) => /^sb-[^=]*-auth-token=/.test(pair));
  return session?.slice(session.indexOf('=') + 1) ?? '';
}

/** The demo board of the seed (40 tasks), as its owner sees it. */
const DEMO = {
  email: 'ada@demo.crewboard.test',
  password: 'crewboard-demo',
  board: projectPath('northwind', 'WEB'),
};

export async function benchApp(backend: BenchBackend): Promise<AppFigures> {
  // Two app processes: one talks to the backend directly and its throughput is measured; the other
  // goes through a recording proxy and is profiled one request at a time.
  const app = await startApp(backend.apiUrl, backend.anonKey, backend.serviceRoleKey);
  const proxy = await countingProxy(backend.apiUrl);
  const profiled = await startApp(proxy.url, backend.anonKey, backend.serviceRoleKey);
  try {
    const email = `bench-app-${Date.now()}@example.test`;
    await createUser(backend, email);
    const cookie = await signInCookie(app.url, email, 'bench-password-1');
    const profiledCookie = await signInCookie(profiled.url, email, 'bench-password-1');
    // Warm up: JWKS fetched and cached, connections open.
    await requestsPerSecond(`${app.url}/account`, cookie, 1, 1);
    await requestsPerSecond(`${profiled.url}/account`, profiledCookie, 3, 1);
    proxy.calls.length = 0;
    await requestsPerSecond(`${profiled.url}/account`, profiledCookie, 1, 1);
    const backendRequestsPerPage = proxy.counts();
    const meter = () => new CpuMeter(app.child.pid ?? 0, backend.pid);
    const meters = { account: meter(), healthz: meter(), demoBoard: meter(), login: meter() };
    const [accountRps, healthzRps] = await sideBySide(
      ROUNDS,
      {
        run: () => requestsPerSecond(`${app.url}/account`, cookie, 150, 4),
        timed: (run) => meters.account.measure(150, run),
      },
      {
        run: () => requestsPerSecond(`${app.url}/healthz`, '', 600, 4),
        timed: (run) => meters.healthz.measure(600, run),
      },
    );

    // The signed-in demo board against /login, 10 connections each.
    const demoCookie = await signInCookie(app.url, DEMO.email, DEMO.password);
    const [demoBoardRps, loginRps] = await sideBySide(
      ROUNDS,
      {
        run: () => requestsPerSecond(`${app.url}${DEMO.board}`, demoCookie, 150, 10),
        timed: (run) => meters.demoBoard.measure(150, run),
      },
      {
        run: () => requestsPerSecond(`${app.url}/login`, '', 300, 10),
        timed: (run) => meters.login.measure(300, run),
      },
    );
    const underLoad = [
      { label: 'demo board (10 concurrent)', cpu: meters.demoBoard.perLoad() },
      { label: '/login (10 concurrent)', cpu: meters.login.perLoad() },
      { label: '/account (4 concurrent)', cpu: meters.account.perLoad() },
      { label: '/healthz (4 concurrent)', cpu: meters.healthz.perLoad() },
    ];

    // Boards of 10 to 5,000 tasks, profiled; the one of 1,000 also measured for throughput.
    const scale: Breakdown[] = [];
    let boardPath = '';
    let boardProject = '';
    for (const size of [10, 100, 1000, 5000]) {
      const { path, project } = await bigBoard(backend, email, size);
      if (size === 1000) [boardPath, boardProject] = [path, project];
      scale.push(
        await breakdown(
          `board of ${size.toLocaleString('en')} tasks`,
          profiled,
          proxy,
          path,
          profiledCookie,
          PROFILED_LOADS,
        ),
      );
    }
    const demoProfiledCookie = await signInCookie(profiled.url, DEMO.email, DEMO.password);
    scale.push(
      await breakdown(
        'demo board (40 tasks)',
        profiled,
        proxy,
        DEMO.board,
        demoProfiledCookie,
        PROFILED_LOADS,
      ),
    );
    scale.push(await breakdown('/login, reference', profiled, proxy, '/login', '', PROFILED_LOADS));
    // The page of the throughput ratio above, one load at a time: its app CPU is the figure to lower.
    // A page of about 5 ms needs a few hundred loads for a mean steady to a tenth of a millisecond.
    scale.push(
      await breakdown(
        `/account, signed in (${5 * PROFILED_LOADS} loads)`,
        profiled,
        proxy,
        '/account',
        profiledCookie,
        5 * PROFILED_LOADS,
      ),
    );

    await requestsPerSecond(`${profiled.url}${boardPath}`, profiledCookie, 1, 1);
    proxy.calls.length = 0;
    await requestsPerSecond(`${profiled.url}${boardPath}`, profiledCookie, 1, 1);
    const backendRequestsPerBoard = proxy.counts();
    const [boardRps, boardHealthzRps] = await sideBySide(
      ROUNDS,
      { run: () => requestsPerSecond(`${app.url}${boardPath}`, cookie, 20, 2) },
      { run: () => requestsPerSecond(`${app.url}/healthz`, '', 400, 2) },
    );

    // move_task through REST as the board's owner.
    const token = JSON.parse(
      Buffer.from(
        // The session's own cookie: sign-in sets the device cookie beside it.
        decodeURIComponent(sessionCookie(cookie)).replace(/^base64-/, ''),
        'base64',
      ).toString(),
    ).access_token as string;
    const headers = {
      apikey: backend.anonKey,
      Authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    };
    const project = boardProject;
    const tasks = (await (
      await fetch(`${backend.apiUrl}/rest/v1/tasks?select=id&project_id=eq.${project}&limit=50`, { headers })
    ).json()) as Array<{ id: string }>;
    // The board's columns, in order.
    const statuses = (await (
      await fetch(
        `${backend.apiUrl}/rest/v1/project_statuses?select=id&project_id=eq.${project}&order=position`,
        { headers },
      )
    ).json()) as Array<{ id: string }>;
    // Each move timed alone; around it, which of the board's rows it changed (their xmin moved):
    // positions are kept sparse so that a move touches the moved task only.
    const db = new pg.Client({ connectionString: backend.dbUrl });
    await db.connect();
    const versions = async () =>
      new Map(
        (
          await db.query<{ id: string; xmin: string }>(
            'select id, xmin::text from public.tasks where project_id = $1',
            [project],
          )
        ).rows.map((r) => [r.id, r.xmin]),
      );
    const times: number[] = [];
    const changed: number[] = [];
    try {
      for (let i = 0; i < 100; i++) {
        const task = tasks[i % tasks.length];
        const before = await versions();
        const t0 = performance.now();
        const res = await fetch(`${backend.apiUrl}/rest/v1/rpc/move_task`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            task_id: task?.id,
            status_id: statuses[(i + 1) % statuses.length]?.id,
          }),
        });
        if (!res.ok) throw new Error(`move_task answered ${res.status}`);
        await res.arrayBuffer();
        times.push(performance.now() - t0);
        const after = await versions();
        changed.push([...after].filter(([id, xmin]) => before.get(id) !== xmin).length);
      }
    } finally {
      await db.end();
    }
    times.sort((a, b) => a - b);
    const moveTaskMs = times[Math.floor(times.length / 2)] ?? NaN;
    const moves = {
      count: times.length,
      rowsChanged: { min: Math.min(...changed), max: Math.max(...changed) },
    };

    return {
      accountRps,
      healthzRps,
      backendRequestsPerPage,
      boardRps,
      boardHealthzRps,
      demoBoardRps,
      loginRps,
      backendRequestsPerBoard,
      scale,
      moveTaskMs,
      moves,
      underLoad,
    };
  } finally {
    app.child.kill('SIGTERM');
    profiled.child.kill('SIGTERM');
    proxy.close();
  }
}
