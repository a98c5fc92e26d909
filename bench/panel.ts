// The task panel with a long timeline: a task with 50 comments and 50 history entries, opened as a
// page (the board of 10 tasks behind it, as a first load or a load without JavaScript does), against
// /login in alternating rounds of the same run, beside the same page for a task with no timeline to
// speak of; and what one such load asks of the backend.
import pg from 'pg';
import {
  breakdown,
  countingProxy,
  createUser,
  requestsPerSecond,
  ROUNDS,
  sideBySide,
  signInCookie,
  startApp,
  PROFILED_LOADS,
  type Breakdown,
} from './app.ts';
import type { BenchBackend } from './backend.ts';
import { taskPath } from '../app/utils/projects.ts';

export const PANEL_COMMENTS = 50;
export const PANEL_HISTORY = 50;

export interface PanelFigures {
  panelRps: number;
  loginRps: number;
  /** The same page for a task of the same board with no comments and one history entry, and its /login. */
  plainPanelRps: number;
  plainLoginRps: number;
  backendRequestsPerPanel: Map<string, number>;
  /** One load at a time: the panel with its long timeline, then the one with none. */
  profiles: Breakdown[];
}

/**
 * A workspace owned by `email` with a board of 10 tasks; its first task has PANEL_COMMENTS comments
 * and PANEL_HISTORY history entries, written by the owner through the database's own triggers (the
 * task's creation, then changes of its title, priority, status and due date in turn).
 */
async function taskWithLongTimeline(
  backend: BenchBackend,
  email: string,
): Promise<{ panel: string; plainPanel: string }> {
  const db = new pg.Client({ connectionString: backend.dbUrl });
  await db.connect();
  try {
    const [me] = (await db.query<{ id: string }>('select id from auth.users where email = $1', [email])).rows;
    // As the owner: the triggers record auth.uid() as the actor.
    await db.query("select set_config('request.jwt.claims', $1, false)", [
      JSON.stringify({ sub: me?.id, role: 'authenticated' }),
    ]);
    const slug = `bench-panel-${Date.now().toString(36)}`;
    const { rows } = await db.query<{ project: string; key: string; ws: string }>(
      `with ws as (insert into public.workspaces (name, slug, created_by) values ('Panel', $1, $2) returning id),
            m as (insert into public.workspace_members (workspace_id, user_id, role) select id, $2, 'owner' from ws),
            p as (insert into public.projects (workspace_id, name) select id, 'Timeline' from ws returning id, key, workspace_id)
       select id as project, key, workspace_id as ws from p`,
      [slug, me?.id],
    );
    const { project = '', key = '', ws = '' } = rows[0] ?? {};
    const statuses = (
      await db.query<{ id: string }>(
        'select id from public.project_statuses where project_id = $1 order by position',
        [project],
      )
    ).rows.map((s) => s.id);
    await db.query(
      `insert into public.tasks (workspace_id, project_id, title, status_id, created_by)
       select $1, $2, 'Task ' || g, $3, $4 from generate_series(1, 10) g`,
      [ws, project, statuses[1], me?.id],
    );
    const [task] = (
      await db.query<{ id: string }>('select id from public.tasks where project_id = $1 and number = 1', [
        project,
      ])
    ).rows;
    for (let i = 1; i < PANEL_HISTORY; i++) {
      const change =
        [
          ['title = $2', `Task 1, take ${i}`],
          ['priority = $2::public.task_priority', ['low', 'medium', 'high', 'urgent', 'none'][i % 5]],
          ['status_id = $2', statuses[Math.floor(i / 4) % statuses.length]],
          ['due_date = $2::date', `2027-01-${String(1 + (i % 28)).padStart(2, '0')}`],
        ][i % 4] ?? [];
      await db.query(`update public.tasks set ${change[0]} where id = $1`, [task?.id, change[1]]);
    }
    await db.query(
      `insert into public.comments (workspace_id, task_id, author_id, body)
       select $1, $2, $3, 'Comment ' || g || ': ' || repeat('a few words on the work ', 8)
         from generate_series(1, $4::int) g`,
      [ws, task?.id, me?.id, PANEL_COMMENTS],
    );
    const { rows: counted } = await db.query<{ n: number }>(
      'select count(*)::int as n from public.task_history where task_id = $1',
      [task?.id],
    );
    if (counted[0]?.n !== PANEL_HISTORY)
      throw new Error(`the task has ${counted[0]?.n} history entries, not ${PANEL_HISTORY}`);
    return { panel: taskPath(slug, key, 1), plainPanel: taskPath(slug, key, 2) };
  } finally {
    await db.end();
  }
}

export async function benchTaskPanel(backend: BenchBackend): Promise<PanelFigures> {
  const app = await startApp(backend.apiUrl, backend.anonKey, backend.serviceRoleKey);
  const proxy = await countingProxy(backend.apiUrl);
  const profiled = await startApp(proxy.url, backend.anonKey, backend.serviceRoleKey);
  try {
    const email = `bench-panel-${Date.now()}@example.test`;
    await createUser(backend, email);
    const { panel, plainPanel } = await taskWithLongTimeline(backend, email);
    const cookie = await signInCookie(app.url, email, 'bench-password-1');
    const profiledCookie = await signInCookie(profiled.url, email, 'bench-password-1');
    const page = await (await fetch(`${app.url}${panel}`, { headers: { Cookie: cookie } })).text();
    // The page shows what it is measured for: every comment, every history entry, each with its time.
    const times = page.match(/<time datetime=/gi)?.length ?? 0;
    if (times < PANEL_COMMENTS + PANEL_HISTORY)
      throw new Error(`the panel shows ${times} dated entries, not ${PANEL_COMMENTS + PANEL_HISTORY}`);

    const [panelRps, loginRps] = await sideBySide(
      ROUNDS,
      { run: () => requestsPerSecond(`${app.url}${panel}`, cookie, 150, 10) },
      { run: () => requestsPerSecond(`${app.url}/login`, '', 300, 10) },
    );
    // The timeline's share of it: the same page for a task with none of it, against /login again.
    const [plainPanelRps, plainLoginRps] = await sideBySide(
      ROUNDS,
      { run: () => requestsPerSecond(`${app.url}${plainPanel}`, cookie, 150, 10) },
      { run: () => requestsPerSecond(`${app.url}/login`, '', 300, 10) },
    );
    await requestsPerSecond(`${profiled.url}${panel}`, profiledCookie, 3, 1);
    proxy.calls.length = 0;
    await requestsPerSecond(`${profiled.url}${panel}`, profiledCookie, 1, 1);
    const backendRequestsPerPanel = proxy.counts();
    const profiles = [
      await breakdown(
        `task panel, ${PANEL_COMMENTS} comments and ${PANEL_HISTORY} history entries`,
        profiled,
        proxy,
        panel,
        profiledCookie,
        PROFILED_LOADS,
      ),
      await breakdown(
        'task panel, no comments and 1 history entry',
        profiled,
        proxy,
        plainPanel,
        profiledCookie,
        PROFILED_LOADS,
      ),
    ];
    return { panelRps, loginRps, plainPanelRps, plainLoginRps, backendRequestsPerPanel, profiles };
  } finally {
    app.child.kill('SIGTERM');
    profiled.child.kill('SIGTERM');
    proxy.close();
  }
}
