// Edge Functions on the local backend: the first call after start (a Deno process boots,
// with and without its npm packages cached), a warm call against PostgREST doing the same reads,
// and a 10,000-task CSV export (rows per second, and the function process's memory while it streams).
import { readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { BenchBackend } from './backend.ts';

export interface FunctionFigures {
  /** First call after start with an empty Deno cache (npm packages downloaded), seconds. */
  coldEmptyCacheS: number;
  /** First call after a reload, packages cached: a process boot, seconds. */
  coldCachedS: number;
  warmFunctionMs: number;
  warmRestMs: number;
  exportRowsPerS: number;
  exportRows: number;
  /** Resident memory of the function's process before the big export and at its peak during it, MB. */
  rssBeforeMb: number;
  rssPeakMb: number;
}

async function board(backend: BenchBackend, email: string, count: number): Promise<string> {
  const client = new pg.Client({ connectionString: backend.dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ project: string }>(
      `with me as (select id from auth.users where email = $1),
            ws as (insert into public.workspaces (name, slug, created_by)
                   select 'Bench', 'fn-' || substr(md5(random()::text), 1, 10), id from me returning id),
            m as (insert into public.workspace_members (workspace_id, user_id, role) select ws.id, me.id, 'viewer' from ws, me),
            p as (insert into public.projects (workspace_id, name) select id, 'Export' from ws returning id)
       select id as project from p`,
      [email],
    );
    const project = rows[0]?.project ?? '';
    await client.query(
      `insert into public.tasks (workspace_id, project_id, title, description)
       select p.workspace_id, p.id, 'Task ' || g || ', "quoted"', 'Line one of ' || g || E'\\nline two'
         from public.projects p, generate_series(1, $2::int) g where p.id = $1`,
      [project, count],
    );
    return project;
  } finally {
    await client.end();
  }
}

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

async function median(count: number, fn: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? NaN;
}

export async function benchFunctions(backend: BenchBackend, projectRoot: string): Promise<FunctionFigures> {
  const email = `bench-fn-${Date.now()}@example.test`;
  const password = 'bench-password-1';
  const admin = { apikey: backend.serviceRoleKey, Authorization: `Bearer ${backend.serviceRoleKey}` };
  await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  const session = (await (
    await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
  ).json()) as { access_token: string };
  const headers = { apikey: backend.anonKey, Authorization: `Bearer ${session.access_token}` };
  const small = await board(backend, email, 10);
  const big = await board(backend, email, 10_000);

  const exportOf = async (project: string): Promise<string> => {
    const res = await fetch(`${backend.apiUrl}/functions/v1/export-tasks?project=${project}`, { headers });
    if (!res.ok) throw new Error(`export-tasks answered ${res.status}: ${await res.text()}`);
    return res.text();
  };

  let t0 = performance.now();
  await exportOf(small);
  const coldEmptyCacheS = (performance.now() - t0) / 1000;

  // Touching the entry reloads the function: the next call boots a fresh process on a warm cache.
  const entry = path.join(projectRoot, 'supabase', 'functions', 'export-tasks', 'index.ts');
  const before = await backend.functions.pid('export-tasks');
  const now = new Date();
  utimesSync(entry, now, now);
  const reloadDeadline = Date.now() + 10_000;
  while ((await backend.functions.pid('export-tasks')) === before) {
    if (Date.now() > reloadDeadline) throw new Error('export-tasks was not reloaded after its file changed');
    await new Promise((r) => setTimeout(r, 20));
  }
  t0 = performance.now();
  await exportOf(small);
  const coldCachedS = (performance.now() - t0) / 1000;

  const warmFunctionMs = await median(50, async () => void (await exportOf(small)));
  // The same reads through PostgREST: the project, then its tasks with their assignees.
  const warmRestMs = await median(50, async () => {
    await (
      await fetch(`${backend.apiUrl}/rest/v1/projects?select=id,name&id=eq.${small}`, { headers })
    ).text();
    await (
      await fetch(
        `${backend.apiUrl}/rest/v1/tasks?select=number,title,status,priority,due_date,created_at,updated_at,description,assignee:profiles!tasks_assignee_profile_fkey(display_name)&project_id=eq.${small}&order=number&limit=1000`,
        { headers },
      )
    ).text();
  });

  const pid = await backend.functions.pid('export-tasks');
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(pid))), 20);
  t0 = performance.now();
  const res = await fetch(`${backend.apiUrl}/functions/v1/export-tasks?project=${big}`, { headers });
  let rows = 0;
  let last = '';
  const decoder = new TextDecoder();
  const reader = res.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    const text = decoder.decode(chunk.value, { stream: true });
    rows += (last + text).match(/\r\n/g)?.length ?? 0;
    last = text.slice(-1);
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  // Rows: CRLF-ended records, less the header; descriptions hold a bare LF, never a CRLF.
  const exportRows = rows - 1;
  return {
    coldEmptyCacheS,
    coldCachedS,
    warmFunctionMs,
    warmRestMs,
    exportRowsPerS: exportRows / seconds,
    exportRows,
    rssBeforeMb,
    rssPeakMb,
  };
}
