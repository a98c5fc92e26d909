// The sidebar's live unread count: how long a notification takes from the commit that writes it to
// the number on a page someone has open. Grace has her board open in Chromium (the production build,
// JavaScript on); Ada's comments mention her, one at a time, each in its own transaction as Ada (the
// trigger writes the notification). A MutationObserver in the page stamps each new number with the
// wall clock, which this process shares. For scale, the same run times the count's own read
// (public.my_unread_notifications through the REST API, as the page makes it) from here.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import pg from 'pg';
import type { BenchBackend } from './backend.ts';
import { createUser, signInCookie, startApp } from './app.ts';
import { projectPath } from '../app/utils/projects.ts';

export interface InboxCountFigures {
  liveMs: { p50: number; p95: number };
  countReadMs: { p50: number; p95: number };
  samples: number;
}

const SAMPLES = 40;
const SPACING_MS = 250;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
};

declare global {
  interface Window {
    /** When each unread number first showed, by number (wall clock, ms). */
    __unreadSeen?: Record<string, number>;
  }
}

export async function benchInboxCount(backend: BenchBackend): Promise<InboxCountFigures> {
  const stamp = Date.now().toString(36);
  const ada = `bench-inbox-ada-${stamp}@example.test`;
  const grace = `bench-inbox-grace-${stamp}@example.test`;
  await createUser(backend, ada);
  await createUser(backend, grace);
  const db = new pg.Client({ connectionString: backend.dbUrl });
  await db.connect();
  const app = await startApp(backend.apiUrl, backend.anonKey, backend.serviceRoleKey);
  const browser = await chromium.launch({
    executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const {
      rows: [made],
    } = await db.query<{
      ada: string;
      grace: string;
      ws: string;
      project: string;
      slug: string;
      key: string;
    }>(
      `with a as (select id from auth.users where email = $1),
            g as (select id from auth.users where email = $2),
            names as (update public.profiles p set display_name = case when p.id = (select id from a)
                        then 'Ada Bench' else 'Grace Bench' end
                       where p.id in (select id from a union all select id from g)),
            ws as (insert into public.workspaces (name, slug, created_by)
                   select 'Inbox bench', $3, id from a returning id, slug),
            m as (insert into public.workspace_members (workspace_id, user_id, role)
                  select ws.id, a.id, 'owner'::public.workspace_role from ws, a
                  union all select ws.id, g.id, 'member' from ws, g),
            p as (insert into public.projects (workspace_id, name) select id, 'Inbox' from ws
                  returning id, key, workspace_id)
       select (select id from a) as ada, (select id from g) as grace, ws.id as ws, p.id as project,
              ws.slug, p.key
         from ws, p`,
      [ada, grace, `bench-inbox-${stamp}`],
    );
    if (!made) throw new Error('no workspace');
    // The project's statuses are written by its own trigger: the task comes after, in a statement of its own.
    const {
      rows: [task],
    } = await db.query<{ id: string }>(
      `insert into public.tasks (workspace_id, project_id, title, created_by, status_id)
       select $1, $2, 'Talked about', $3,
              (select s.id from public.project_statuses s where s.project_id = $2 order by s.position limit 1)
       returning id`,
      [made.ws, made.project, made.ada],
    );
    const scene = task ? { ...made, task: task.id } : undefined;
    if (!scene) throw new Error('no scene');

    // Grace's page: her board, signed in with the app's own cookies.
    const cookies = (await signInCookie(app.url, grace, 'bench-password-1')).split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: app.url };
    });
    const context = await browser.newContext();
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(`${app.url}${projectPath(scene.slug, scene.key)}`);
    await page.evaluate(() => {
      window.__unreadSeen = {};
      const link = document.querySelector('nav[aria-label="Notifications"] a[href="/inbox"]');
      if (!link) throw new Error('no Inbox link');
      new MutationObserver(() => {
        const text = link.querySelector('[data-testid="unread-count"]')?.firstChild?.textContent ?? '0';
        window.__unreadSeen![text] ??= Date.now();
      }).observe(link, { subtree: true, childList: true, characterData: true });
    });
    // Listening: the realtime subscription is up once the first comment's count arrives (warm-up).
    const claims = JSON.stringify({ sub: scene.ada, role: 'authenticated', aal: 'aal1' });
    const mention = async (i: number) => {
      await db.query('begin');
      await db.query(
        "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)",
        [claims],
      );
      await db.query('insert into public.comments (workspace_id, task_id, body) values ($1, $2, $3)', [
        scene.ws,
        scene.task,
        `Round ${i}: @grace have a look`,
      ]);
      const committing = Date.now();
      await db.query('commit');
      return committing;
    };
    const shown = (n: number) =>
      page
        .waitForFunction((key) => window.__unreadSeen?.[key], String(n), { timeout: 20_000 })
        .then((handle) => handle.jsonValue() as Promise<number>);
    await page.waitForTimeout(2_000);
    await mention(0);
    await shown(1);

    const live: number[] = [];
    for (let i = 1; i <= SAMPLES; i++) {
      const committed = await mention(i);
      live.push((await shown(i + 1)) - committed);
      await page.waitForTimeout(SPACING_MS);
    }

    // The read the page makes on each message, timed from here with Grace's session.
    const signIn = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: grace, password: 'bench-password-1' }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const reads: number[] = [];
    for (let i = 0; i < SAMPLES + 5; i++) {
      const t0 = performance.now();
      const res = await fetch(`${backend.apiUrl}/rest/v1/rpc/my_unread_notifications`, {
        method: 'POST',
        headers: {
          apikey: backend.anonKey,
          Authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      await res.text();
      if (i >= 5) reads.push(performance.now() - t0);
    }
    return { liveMs: spread(live), countReadMs: spread(reads), samples: SAMPLES };
  } finally {
    await browser.close();
    app.child.kill();
    await db.end();
  }
}
