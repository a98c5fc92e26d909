// What notifications cost a comment: inserting a comment that mentions 5 members on a task 10 others
// watch (15 notifications written by the triggers, each queued for email), against inserting one on
// a task nobody else watches that mentions nobody, in alternating rounds of the same run. Each insert
// is its own transaction as the author (role authenticated, their claims), as PostgREST runs one.
import pg from 'pg';
import type { BenchBackend } from './backend.ts';

export interface NotificationFigures {
  notifyingMs: { p50: number; p95: number };
  quietMs: { p50: number; p95: number };
  notificationsPerComment: number;
  samples: number;
}

const ROUNDS = 200;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

export async function benchNotifications(backend: BenchBackend): Promise<NotificationFigures> {
  const db = new pg.Client({ connectionString: backend.dbUrl });
  await db.connect();
  try {
    const stamp = Date.now().toString(36);
    // 16 people: the author, 5 to mention and 10 watchers, all members of one workspace.
    const { rows: people } = await db.query<{ id: string }>(
      `insert into auth.users (id, email, aud, role, email_confirmed_at, raw_user_meta_data)
       select gen_random_uuid(), 'bench-notify-' || $1 || '-' || g || '@example.test', 'authenticated',
              'authenticated', now(), jsonb_build_object('display_name', 'Person' || g || $1)
         from generate_series(1, 16) g
       returning id`,
      [stamp],
    );
    const ids = people.map((p) => p.id);
    const author = ids[0]!;
    for (const [i, id] of ids.entries())
      await db.query('update public.profiles set display_name = $2 where id = $1', [
        id,
        `Person${i}${stamp}`,
      ]);
    const {
      rows: [ws],
    } = await db.query<{ ws: string; project: string }>(
      `with ws as (insert into public.workspaces (name, slug, created_by) values ('Notify', $1, $2) returning id),
            m as (insert into public.workspace_members (workspace_id, user_id, role)
                  select ws.id, u, case when u = $2 then 'owner'::public.workspace_role else 'member' end
                    from ws, unnest($3::uuid[]) u),
            p as (insert into public.projects (workspace_id, name) select id, 'Notify' from ws returning id, workspace_id)
       select workspace_id as ws, id as project from p`,
      [`bench-notify-${stamp}`, author, ids],
    );
    const { rows: tasks } = await db.query<{ id: string }>(
      `insert into public.tasks (workspace_id, project_id, title, created_by)
       values ($1, $2, 'Watched', $3), ($1, $2, 'Quiet', $3) returning id`,
      [ws!.ws, ws!.project, author],
    );
    const [watched, quiet] = tasks.map((t) => t.id);
    await db.query(
      `insert into public.task_watchers (task_id, user_id, workspace_id)
       select $1, u, $2 from unnest($3::uuid[]) u on conflict do nothing`,
      [watched, ws!.ws, ids.slice(6, 16)],
    );
    const mentions = ids
      .slice(1, 6)
      .map((_, i) => `@Person${i + 1}${stamp}`)
      .join(' ');
    const claims = JSON.stringify({ sub: author, role: 'authenticated', aal: 'aal1' });
    const insert = async (task: string, body: string) => {
      const started = performance.now();
      await db.query('begin');
      await db.query(
        "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)",
        [claims],
      );
      await db.query('insert into public.comments (workspace_id, task_id, body) values ($1, $2, $3)', [
        ws!.ws,
        task,
        body,
      ]);
      await db.query('commit');
      return performance.now() - started;
    };
    // Warm both paths, and count what one notifying comment writes.
    const before = Number((await db.query('select count(*) from public.notifications')).rows[0].count);
    await insert(watched!, `Please look ${mentions}`);
    const perComment =
      Number((await db.query('select count(*) from public.notifications')).rows[0].count) - before;
    await insert(quiet!, 'A note to myself');
    const notifying: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      notifying.push(await insert(watched!, `Round ${i}: please look ${mentions}`));
      plain.push(await insert(quiet!, `Round ${i}: a note to myself`));
    }
    notifying.sort((a, b) => a - b);
    plain.sort((a, b) => a - b);
    return {
      notifyingMs: { p50: percentile(notifying, 0.5), p95: percentile(notifying, 0.95) },
      quietMs: { p50: percentile(plain, 0.5), p95: percentile(plain, 0.95) },
      notificationsPerComment: perComment,
      samples: ROUNDS,
    };
  } finally {
    await db.end();
  }
}
