// What a search costs at size: public.search_tasks in a workspace of 1,000 tasks (3,000 comments)
// and in one of 100,000 tasks (300,000 comments), each against reading one task by its primary key
// in the same workspace, in alternating rounds of the same run. Both run as the workspace's owner
// (role authenticated, their claims), under RLS, one transaction each, as PostgREST runs them.
// The rows are written in SQL with generate_series, with the triggers off (numbers, positions and
// statuses given), so seeding 400,000 rows takes seconds rather than the triggers' minutes.
import pg from 'pg';

export interface SearchCase {
  name: string;
  args: Record<string, unknown>;
}

export interface SearchFigures {
  tasks: number;
  comments: number;
  /** Per case: p50 ms of the search, p50 ms of the one-task read beside it, rows found. */
  cases: Array<{ name: string; searchMs: number; readMs: number; rows: number }>;
  samples: number;
}

const ROUNDS = 60;

// Made-up words from syllables: 400 of them, each in about 1 title in 100; `bootloader` is in one
// task in 1,000, `flaky` in one comment in 3,000.
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'be',
  'du',
  'fe',
  'go',
  'ha',
  'ji',
  'pu',
  'ze',
];
export const VOCABULARY = SYLLABLES.flatMap((a) =>
  SYLLABLES.flatMap((b) => ['', 'n', 'r'].map((c) => a + b + c)),
).slice(0, 400);

export const SEARCH_CASES: SearchCase[] = [
  { name: 'a rare word, by its beginning ("bootl")', args: { words: ['bootl'] } },
  { name: 'two common words ("kaka lokar")', args: { words: [VOCABULARY[0], VOCABULARY[50]] } },
  // The search page asks for 50 results (the command palette for 8; the other cases, the default 20).
  {
    name: 'two common words, a page of 50 ("kaka lokar")',
    args: { words: [VOCABULARY[0], VOCABULARY[50]], max_results: 50 },
  },
  { name: 'a word only in comments ("flaky")', args: { words: ['flaky'] } },
  // Task 500 is in SEA (task i is in project 1 + i % 5).
  { name: 'a task key ("SEA-500")', args: { words: ['sea-500'], key_project: 'SEA', key_number: 500 } },
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** A workspace `slug` of `tasks` tasks and three comments each, owned by a new user; its owner's id. */
export async function seedSearchWorkspace(db: pg.Client, slug: string, tasks: number): Promise<string> {
  const {
    rows: [owner],
  } = await db.query<{ id: string }>(
    `insert into auth.users (id, email, aud, role, email_confirmed_at, raw_user_meta_data)
     values (gen_random_uuid(), $1, 'authenticated', 'authenticated', now(), '{"display_name": "Searcher"}')
     returning id`,
    [`${slug}@example.test`],
  );
  const {
    rows: [scene],
  } = await db.query<{ ws: string; projects: string[] }>(
    `with ws as (insert into public.workspaces (name, slug, created_by) values ('Search', $1, $2) returning id),
          m as (insert into public.workspace_members (workspace_id, user_id, role)
                select id, $2, 'owner' from ws),
          p as (insert into public.projects (workspace_id, name, key)
                select ws.id, 'Project ' || k, k from ws, unnest(array['SEA', 'WEB', 'API', 'OPS', 'APP']) k
                returning id, key)
     select (select id from ws) as ws,
            array(select id from p order by array_position(array['SEA', 'WEB', 'API', 'OPS', 'APP'], p.key)) as projects`,
    [slug, owner!.id],
  );
  await db.query('begin');
  // A word of the vocabulary for task i's j-th word: spread evenly, the same in every run.
  await db.query(
    `create or replace function pg_temp.word(i bigint, j int) returns text language sql immutable as $$
       select ($1::text[])[1 + abs(hashint8((i << 8) + j)) % ${VOCABULARY.length}]
     $$`.replace('$1::text[]', `'{${VOCABULARY.join(',')}}'::text[]`),
  );
  // Triggers off for the bulk rows: what they would fill in is given here.
  await db.query("set local session_replication_role = 'replica'");
  await db.query(
    `insert into public.tasks (workspace_id, project_id, number, title, description, position, status_id, created_by)
     select $1::uuid, p.id, i, initcap(pg_temp.word(i, 1)) || ' ' || pg_temp.word(i, 2) || ' ' || pg_temp.word(i, 3)
              || case when i % 1000 = 7 then ' bootloader' else ' ' || pg_temp.word(i, 4) end,
            (select string_agg(pg_temp.word(i, 10 + j), ' ') from generate_series(1, 15) j),
            i * 1024,
            (select s.id from public.project_statuses s where s.project_id = p.id order by s.position offset i % 4 limit 1),
            $4::uuid
       from generate_series(1, $2::int) i
      cross join lateral (select ($3::uuid[])[1 + i % 5] as id) p`,
    [scene!.ws, tasks, scene!.projects, owner!.id],
  );
  await db.query(
    `insert into public.comments (workspace_id, task_id, author_id, body)
     select t.workspace_id, t.id, $2::uuid,
            (select string_agg(pg_temp.word(t.number * 16 + c, 100 + j), ' ') from generate_series(1, 8) j)
              || case when (t.number * 3 + c) % 3000 = 11 then ' flaky' else '' end
       from public.tasks t, generate_series(1, 3) c
      where t.workspace_id = $1::uuid`,
    [scene!.ws, owner!.id],
  );
  // Each project's numbering continues after its tasks, as the trigger would have left it.
  await db.query(
    `update public.projects p set next_task_number = coalesce((select max(t.number) + 1 from public.tasks t where t.project_id = p.id), 1)
      where p.workspace_id = $1`,
    [scene!.ws],
  );
  await db.query('commit');
  return owner!.id;
}

/** Times search_tasks in workspace `slug` against a one-task read there, as `owner`. */
export async function timeSearches(db: pg.Client, slug: string, owner: string): Promise<SearchFigures> {
  const claims = JSON.stringify({ sub: owner, role: 'authenticated', aal: 'aal1' });
  const {
    rows: [counts],
  } = await db.query<{ tasks: number; comments: number; task: string }>(
    `select (select count(*)::int from public.tasks t where t.workspace_id = w.id) as tasks,
            (select count(*)::int from public.comments c where c.workspace_id = w.id) as comments,
            (select t.id from public.tasks t where t.workspace_id = w.id and t.number = 500 limit 1) as task
       from public.workspaces w where w.slug = $1`,
    [slug],
  );
  const asOwner = async (text: string, values: unknown[]) => {
    const started = performance.now();
    await db.query('begin');
    await db.query(
      "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)",
      [claims],
    );
    const { rowCount } = await db.query(text, values);
    await db.query('commit');
    return { ms: performance.now() - started, rows: rowCount ?? 0 };
  };
  const read = () => asOwner('select * from public.tasks where id = $1', [counts!.task]);
  const cases = [];
  for (const c of SEARCH_CASES) {
    const search = () =>
      asOwner(
        `select * from public.search_tasks(workspace_slug => $1, words => $2, key_project => $3, key_number => $4,
                                           max_results => $5)`,
        [slug, c.args.words, c.args.key_project ?? null, c.args.key_number ?? null, c.args.max_results ?? 20],
      );
    // Warm both, and count what the search finds.
    const { rows } = await search();
    await read();
    const searches: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      searches.push((await search()).ms);
      reads.push((await read()).ms);
    }
    searches.sort((a, b) => a - b);
    reads.sort((a, b) => a - b);
    cases.push({ name: c.name, searchMs: percentile(searches, 0.5), readMs: percentile(reads, 0.5), rows });
  }
  return { tasks: counts!.tasks, comments: counts!.comments, cases, samples: ROUNDS };
}

/** A workspace of 1,000 tasks and one of 100,000, seeded, analyzed, and searched. */
export async function benchSearch(dbUrl: string): Promise<SearchFigures[]> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const stamp = Date.now().toString(36);
    const small = await seedSearchWorkspace(db, `search-small-${stamp}`, 1_000);
    const large = await seedSearchWorkspace(db, `search-large-${stamp}`, 100_000);
    await db.query('vacuum analyze public.tasks, public.comments');
    return [
      await timeSearches(db, `search-small-${stamp}`, small),
      await timeSearches(db, `search-large-${stamp}`, large),
    ];
  } finally {
    await db.end();
  }
}
