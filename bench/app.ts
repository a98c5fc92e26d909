// App benchmarks: SSR throughput of a signed-in page against /healthz, and what one signed-in page
// load asks of the backend. The app runs as in production (remix-serve). What /login ships is not
// timing but a size, and a test: tests/integration/app-http.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import type { BenchBackend } from './backend.ts';
import { freePort } from '../emulator/lib/net.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');

/** Forwards to the backend and counts requests by path, so a page load's backend traffic is visible. */
async function countingProxy(
  target: string,
): Promise<{ url: string; counts: Map<string, number>; close: () => void }> {
  const counts = new Map<string, number>();
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    counts.set(`${req.method} ${pathname}`, (counts.get(`${req.method} ${pathname}`) ?? 0) + 1);
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
  return { url: `http://127.0.0.1:${port}`, counts, close: () => server.close() };
}

async function startApp(
  supabaseUrl: string,
  anonKey: string,
  serviceRoleKey: string,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(projectRoot, 'node_modules/@remix-run/serve/dist/cli.js'), 'build/index.js'],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        SUPABASE_URL: supabaseUrl,
        SUPABASE_ANON_KEY: anonKey,
        SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
      },
      stdio: 'ignore',
    },
  );
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

async function requestsPerSecond(
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

async function signInCookie(appUrl: string, backend: BenchBackend, email: string): Promise<string> {
  await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${backend.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email, password: 'bench-password-1', email_confirm: true }),
  });
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
    body: new URLSearchParams({ email, password: 'bench-password-1' }),
  });
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** A workspace owned by `email` with one project of `count` tasks; returns the board's path. */
async function bigBoard(backend: BenchBackend, email: string, count: number): Promise<string> {
  const client = new pg.Client({ connectionString: backend.dbUrl });
  await client.connect();
  try {
    const slug = `bench-${Date.now().toString(36)}`;
    const { rows } = await client.query<{ project: string }>(
      `with me as (select id from auth.users where email = $1),
            ws as (insert into public.workspaces (name, slug, created_by) select 'Bench', $2, id from me returning id),
            m as (insert into public.workspace_members (workspace_id, user_id, role) select ws.id, me.id, 'owner' from ws, me),
            p as (insert into public.projects (workspace_id, name) select id, 'Big board' from ws returning id, workspace_id)
       select id as project from p`,
      [email, slug],
    );
    const project = rows[0]?.project ?? '';
    await client.query(
      `insert into public.tasks (workspace_id, project_id, title, description, status, priority)
       select p.workspace_id, p.id, 'Task ' || g, 'Description of task ' || g,
              (array['backlog','todo','in_progress','done'])[1 + g % 4]::public.task_status,
              (array['none','low','medium','high','urgent'])[1 + g % 5]::public.task_priority
         from public.projects p, generate_series(1, $2::int) g where p.id = $1`,
      [project, count],
    );
    return `/w/${slug}/p/${project}`;
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
  backendRequestsPerBoard: Map<string, number>;
  moveTaskMs: number;
  /** How many moves were timed, and the fewest and most of the board's task rows one of them changed. */
  moves: { count: number; rowsChanged: { min: number; max: number } };
}

export async function benchApp(backend: BenchBackend): Promise<AppFigures> {
  const proxy = await countingProxy(backend.apiUrl);
  const app = await startApp(proxy.url, backend.anonKey, backend.serviceRoleKey);
  try {
    const email = `bench-app-${Date.now()}@example.test`;
    const cookie = await signInCookie(app.url, backend, email);
    // Warm up: JWKS fetched and cached, connections open.
    await requestsPerSecond(`${app.url}/account`, cookie, 20, 2);
    proxy.counts.clear();
    await requestsPerSecond(`${app.url}/account`, cookie, 1, 1);
    const backendRequestsPerPage = new Map(proxy.counts);
    // Interleaved rounds, so both figures see the same machine load.
    let account = 0;
    let healthz = 0;
    for (let round = 0; round < 3; round++) {
      account += await requestsPerSecond(`${app.url}/account`, cookie, 150, 4);
      healthz += await requestsPerSecond(`${app.url}/healthz`, '', 600, 4);
    }

    // A board of 1,000 tasks.
    const boardPath = await bigBoard(backend, email, 1000);
    await requestsPerSecond(`${app.url}${boardPath}`, cookie, 5, 1);
    proxy.counts.clear();
    await requestsPerSecond(`${app.url}${boardPath}`, cookie, 1, 1);
    const backendRequestsPerBoard = new Map(proxy.counts);
    let board = 0;
    let boardHealthz = 0;
    for (let round = 0; round < 3; round++) {
      board += await requestsPerSecond(`${app.url}${boardPath}`, cookie, 20, 2);
      boardHealthz += await requestsPerSecond(`${app.url}/healthz`, '', 400, 2);
    }

    // move_task through REST as the board's owner.
    const token = JSON.parse(
      Buffer.from(
        decodeURIComponent(cookie.split('=').slice(1).join('=')).replace(/^base64-/, ''),
        'base64',
      ).toString(),
    ).access_token as string;
    const headers = {
      apikey: backend.anonKey,
      Authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    };
    const project = boardPath.split('/').pop() ?? '';
    const tasks = (await (
      await fetch(`${backend.apiUrl}/rest/v1/tasks?select=id&project_id=eq.${project}&limit=50`, { headers })
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
            status: (['backlog', 'todo', 'in_progress', 'done'] as const)[(i + 1) % 4],
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
      accountRps: account / 3,
      healthzRps: healthz / 3,
      backendRequestsPerPage,
      boardRps: board / 3,
      boardHealthzRps: boardHealthz / 3,
      backendRequestsPerBoard,
      moveTaskMs,
      moves,
    };
  } finally {
    app.child.kill('SIGTERM');
    proxy.close();
  }
}
