// The queries behind the signed-in pages, planned under RLS at a realistic size: each is run as PostgREST runs it (role `authenticated`, the caller's JWT claims in
// `request.jwt.claims`, the same SQL text and parameters) with `explain (analyze, buffers, verbose,
// format json)`, on a backend of its own holding a 5,000-task board, a second project beside it,
// and another person's workspace four times as big that the caller must never pay for.
//
// A good plan here means:
// - no Seq Scan of a table that grows with use (tasks, comments, activity, attachments,
//   workspace_members, workspaces, profiles): a missing filter or index would show as one;
// - the shared buffers the statement touches (hit + read) stay under the query's own budget, which
//   says what the page has to read and nothing of the other workspace;
// - the RLS helpers (my_workspace_ids, mfa_satisfied, …) run once per statement, as an InitPlan or a
//   hashed SubPlan executed once, never once per row (20261121180000_rls_per_statement.sql).
//
// PostgREST sends each read as a named prepared statement, so after five runs PostgreSQL may switch
// to a generic plan that does not know the parameters' values. Every query is checked both ways: as
// a custom plan (values known) and as a forced generic one.
//
// The SQL texts are PostgREST 12.0.2's, copied from the statements it sent for the app's
// supabase-js calls (log_statement = all, or pg_stat_statements with its constants put back); `1000` is db-max-rows (supabase/config.toml), which
// PostgREST puts on embedded resources as well as on the top level.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as jose from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../emulator/backend.ts';
import { dbClient } from '../support/db.ts';
import { projectRoot, startPrivateBackend } from '../support/private-backend.ts';

// Sizes: a board of 5,000 tasks, a second project in the same workspace (so a board that forgot
// its project filter would read it), and a neighbour four times as big (so one that forgot the
// workspace filter, or RLS applied per row, would show). Other people's personal workspaces make
// workspaces, workspace_members and profiles tables of some size too.
const BOARD_TASKS = 5_000;
const SIDE_TASKS = 2_000;
const NEIGHBOUR_TASKS = 20_000;
const PEOPLE = 2_000;
const MY_TEAM = 30;
const NEIGHBOUR_TEAM = 99;
const MAX_ROWS = 1000; // supabase/config.toml [api] max_rows

interface Scene {
  me: string;
  claims: string;
  workspace: string;
  slug: string;
  board: string;
  /** Task #1 of the board: the one with comments and attachments, opened in the task panel. */
  task: string;
}

let backend: Backend;
let db: pg.Client;
let scene: Scene;

/** Walks a plan tree. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  'Actual Loops': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

interface Explained {
  Plan: PlanNode;
  'Execution Time': number;
  'Planning Time': number;
}

// ---------------------------------------------------------------------------------------------
// The queries. One entry per request a signed-in page makes; adding one is adding a line.

// The tail PostgREST puts after every read (app/… `.from(...).select(...)`) and RPC.
const TAIL =
  `SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ` +
  `coalesce(json_agg(_postgrest_t), '[]') AS body, ` +
  `nullif(current_setting('response.headers', true), '') AS response_headers, ` +
  `nullif(current_setting('response.status', true), '') AS response_status, '' AS response_inserted`;
/** A table read: `source` is the `pgrst_source` CTE PostgREST builds from the select and filters. */
interface OverviewAnswer {
  session: string;
  membership: unknown;
  counts: Array<{ project_id: string; category: string; count: number; overdue: number }>;
  my_tasks: unknown[];
  my_task_count: number;
  activity: unknown[];
}
interface BoardAnswer {
  session: string;
  columns: Array<{
    id: string;
    count: number;
    total: number;
    tasks: Array<{ id: string; number: number; comments: number; attachments: number }>;
  }>;
}

/**
 * A page function's query, read from its migration, with the function's arguments as parameters:
 * `args` lists them in order ($1, $2, …) with their types. A PL/pgSQL function's query is the
 * `return (…)` of its body; a SQL function's is its whole body. A PL/pgSQL function that looks a
 * value up before it (overview_page's workspace id) has that variable given as a parameter too.
 */
function functionQuery(migration: string, fn: string, args: Array<[string, string]>): string {
  const source = readFileSync(path.join(projectRoot, 'supabase/migrations', migration), 'utf8');
  const plpgsql = source.indexOf('return (');
  let body =
    plpgsql === -1
      ? source.slice(source.indexOf('as $$') + 'as $$'.length, source.lastIndexOf('$$;'))
      : source.slice(plpgsql + 'return ('.length, source.lastIndexOf(');\nend'));
  // A name with a dot is a variable of a labelled block (`page.workspace_id`), not an argument.
  args.forEach(([name, type], i) => {
    body = body.replaceAll(name.includes('.') ? name : `${fn}.${name}`, `$${i + 1}::${type}`);
  });
  return body;
}

/**
 * search_task_hits' query (the index reads behind search_tasks), read from its migration, with the
 * function's arguments as parameters in the order searchHitsParams gives them.
 */
function searchHitsQuery(): string {
  const source = readFileSync(
    path.join(projectRoot, 'supabase/migrations/20261202000100_search_task_hits_kind_by_kind.sql'),
    'utf8',
  );
  let body = source.slice(source.indexOf('as $$') + 'as $$'.length, source.lastIndexOf('$$;'));
  const args: Array<[string, string]> = [
    ['ws', 'uuid'],
    ['anywhere', 'tsquery'],
    ['key_project', 'text'],
    ['key_number', 'integer'],
    ['status_ids', 'uuid[]'],
    ['assignee', 'text'],
    ['people', 'uuid[]'],
    ['label_ids', 'uuid[]'],
    ['size', 'integer'],
  ];
  args.forEach(([name, type], i) => {
    body = body.replaceAll(`search_task_hits.${name}`, `$${i + 1}::${type}`);
  });
  return body;
}

/** The arguments search_tasks gives search_task_hits for `query` (a tsquery, as search_tsquery builds it). */
function searchHitsParams(
  s: Scene,
  query: string | null,
  key?: { project: string; number: number },
): unknown[] {
  return [s.workspace, query, key?.project ?? null, key?.number ?? null, null, null, '{}', null, 20];
}

/**
 * board_page's first statement, its `select … into` as a query: `columns` is what it selects, and the
 * address's workspace slug and project key are the parameters.
 */
function boardFirstStatement(migration: string, columns: string): string {
  const source = readFileSync(path.join(projectRoot, 'supabase/migrations', migration), 'utf8');
  const start = source.indexOf(`select ${columns}`);
  const into = /\s+into [^\n]*/y;
  into.lastIndex = start + `select ${columns}`.length;
  const statement =
    start === -1 || !into.test(source) ? '' : source.slice(into.lastIndex, source.indexOf(';', start));
  if (!statement) throw new Error(`board_page's first statement not found in ${migration}`);
  return `select ${columns} ${statement}`
    .replaceAll('board_page.workspace_slug', '$1::text')
    .replaceAll('board_page.project_key', '$2::text');
}

const read = (source: string) =>
  `WITH pgrst_source AS (${source}) ${TAIL} FROM ( SELECT * FROM pgrst_source ) _postgrest_t`;
/** `rpc(fn)` of a set-returning function without arguments (GET-style call). */
const rpcSetof = (fn: string) =>
  `WITH pgrst_source AS (SELECT "pgrst_call".* FROM "public"."${fn}"() pgrst_call) ${TAIL} ` +
  `FROM (SELECT "record".* FROM "pgrst_source" AS "record"     LIMIT $1 OFFSET $2) _postgrest_t`;
/**
 * `rpc(fn, args)` with a JSON body: PostgREST unpacks the body into the named arguments. It binds the
 * body as a json parameter; `$1::json` says so here, where parameters are sent untyped.
 */
const rpcWithBody = (fn: string, args: Record<string, string>, returns: string) =>
  `WITH pgrst_source AS (SELECT "pgrst_call".* FROM (SELECT $1::json AS json_data) pgrst_payload, ` +
  `LATERAL (SELECT CASE WHEN json_typeof(pgrst_payload.json_data) = 'array' THEN pgrst_payload.json_data ` +
  `ELSE json_build_array(pgrst_payload.json_data) END AS val) pgrst_uniform_json, ` +
  `LATERAL (SELECT ${Object.keys(args)
    .map((a) => `"${a}"`)
    .join(', ')} FROM json_to_recordset(pgrst_uniform_json.val) ` +
  `AS _(${Object.entries(args)
    .map(([a, t]) => `"${a}" ${t}`)
    .join(', ')}) LIMIT 1) pgrst_body , ` +
  `LATERAL "public"."${fn}"(${Object.keys(args)
    .map((a) => `"${a}" := pgrst_body."${a}"`)
    .join(', ')}) pgrst_call) ` +
  `${TAIL} FROM (SELECT "${returns}".* FROM "pgrst_source" AS "${returns}"     LIMIT $2 OFFSET $3) _postgrest_t`;

interface PlannedQuery {
  /** The page and what it reads. */
  name: string;
  sql: string;
  params: (s: Scene) => unknown[];
  /**
   * Shared buffers (hit + read) the statement may touch. Each budget is what the page must read
   * (its rows' heap pages, the index pages that find them, one lookup per embedded row) with room
   * to spare, and far below what reading the neighbour's rows would cost (its 20,000 tasks fill
   * about 800 heap pages, and one RLS check per row costs several buffers a row).
   */
  maxBuffers: number;
  /** Helpers RLS must call (once): proof the statement ran under the policies at all. */
  rls: string[];
  /** Security-definer function bodies run as their owner; everything else as `authenticated`. */
  as?: 'owner';
}

// The RLS helper functions of the policies (and the older per-row ones, which must not come back).
const HELPERS = [
  'my_workspace_ids',
  'fellow_member_ids',
  'archived_project_ids',
  'mfa_satisfied',
  'is_member',
  'has_role',
  'workspace_role_of',
  'shares_workspace_with',
  'project_is_active',
  'task_is_writable',
];
// Tables that grow with use: a sequential scan of one is a missing filter or index.
const GROWING = [
  'tasks',
  'comments',
  'activity',
  'attachments',
  'task_links',
  'workspace_members',
  'workspaces',
  'profiles',
];

// The deployed board's query (private.board_content, which board_page calls, and which keeps each
// board in private.board_cache): the workspace and project board_page's first statement found.
const BOARD_CONTENT_ARGS: Array<[string, string]> = [
  ['ws_id', 'uuid'],
  ['project_id', 'uuid'],
  ['shown', 'jsonb'],
  ['filters', 'jsonb'],
];

const queries: PlannedQuery[] = [
  {
    // app/utils/session/membership.server.ts loadMembership: every /w/:workspace page (layout, sidebar).
    name: 'workspace layout: workspace, my membership and profile, projects',
    sql: read(
      `SELECT "public"."workspaces"."id", "public"."workspaces"."name", "public"."workspaces"."slug", "public"."workspaces"."is_personal", COALESCE( "workspaces_workspace_members_1"."workspaces_workspace_members_1", '[]') AS "workspace_members", COALESCE( "workspaces_projects_1"."workspaces_projects_1", '[]') AS "projects" FROM "public"."workspaces" INNER JOIN LATERAL ( SELECT json_agg("workspaces_workspace_members_1")::jsonb AS "workspaces_workspace_members_1" FROM (SELECT "workspace_members_1"."role", row_to_json("workspace_members_profile_2".*)::jsonb AS "profile" FROM "public"."workspace_members" AS "workspace_members_1" LEFT JOIN LATERAL ( SELECT "profiles_2"."display_name" FROM "public"."profiles" AS "profiles_2"  WHERE "profiles_2"."id" = "workspace_members_1"."user_id"   LIMIT $1 OFFSET $2 ) AS "workspace_members_profile_2" ON TRUE WHERE  "workspace_members_1"."user_id" = $3 AND "workspace_members_1"."workspace_id" = "public"."workspaces"."id"   LIMIT $4 OFFSET $5 ) AS "workspaces_workspace_members_1" ) AS "workspaces_workspace_members_1" ON "workspaces_workspace_members_1" IS NOT NULL LEFT JOIN LATERAL ( SELECT json_agg("workspaces_projects_1")::jsonb AS "workspaces_projects_1" FROM (SELECT "projects_1"."id", "projects_1"."key", "projects_1"."name", "projects_1"."archived_at" FROM "public"."projects" AS "projects_1"  WHERE "projects_1"."workspace_id" = "public"."workspaces"."id"   LIMIT $6 OFFSET $7 ) AS "workspaces_projects_1" ) AS "workspaces_projects_1" ON TRUE WHERE  "public"."workspaces"."slug" = $8   LIMIT $9 OFFSET $10 `,
    ),
    params: (s) => [MAX_ROWS, 0, s.me, MAX_ROWS, 0, MAX_ROWS, 0, s.slug, MAX_ROWS, 0],
    maxBuffers: 80, // one workspace by slug, my membership and profile, a few projects: ~50
    rls: ['my_workspace_ids', 'fellow_member_ids', 'mfa_satisfied'],
  },
  {
    // app/routes/w._index.tsx: the list of my workspaces.
    name: 'workspace list: my workspaces with my role',
    sql: read(
      `SELECT "public"."workspaces"."id", "public"."workspaces"."name", "public"."workspaces"."slug", "public"."workspaces"."is_personal", COALESCE( "workspaces_workspace_members_1"."workspaces_workspace_members_1", '[]') AS "workspace_members" FROM "public"."workspaces" INNER JOIN LATERAL ( SELECT json_agg("workspaces_workspace_members_1")::jsonb AS "workspaces_workspace_members_1" FROM (SELECT "workspace_members_1"."role" FROM "public"."workspace_members" AS "workspace_members_1"  WHERE  "workspace_members_1"."user_id" = $1 AND "workspace_members_1"."workspace_id" = "public"."workspaces"."id"   LIMIT $2 OFFSET $3 ) AS "workspaces_workspace_members_1" ) AS "workspaces_workspace_members_1" ON "workspaces_workspace_members_1" IS NOT NULL   ORDER BY "public"."workspaces"."is_personal" DESC , "public"."workspaces"."name" ASC  LIMIT $4 OFFSET $5 `,
    ),
    params: (s) => [s.me, MAX_ROWS, 0, MAX_ROWS, 0],
    maxBuffers: 60, // my 2 workspaces by primary key and my 2 memberships: ~35
    rls: ['my_workspace_ids', 'mfa_satisfied'],
  },

  // ---- The board ----------------------------------------------------------------------------
  // app/routes/w.$workspace.p.$project/route.tsx: one call of public.board_page (the session's status, my
  // membership and the projects, each column's count and first 50 cards). A PL/pgSQL function plans
  // as one Function Scan, so its statements are planned here as the function runs them, read from its
  // migration with the arguments (and the project id the first finds) as parameters.
  {
    // Its first statement as it ran under the caller's policies: the project's id from the address's
    // key. (Its body under those policies read tasks' old status column, which projects' own statuses
    // replaced; the body runs as board_content below, as its owner.)
    name: "board: board_page's project by workspace slug and key",
    sql: boardFirstStatement('20261123170200_board_page_by_key.sql', 'p.id'),
    params: (s) => [s.slug, 'boa'],
    maxBuffers: 50, // the workspace by slug, the project by (workspace, key), the RLS helpers: ~30
    rls: ['my_workspace_ids', 'mfa_satisfied'],
  },
  // Since 20261124110000 board_page checks its caller once and then reads as its owner (decision 012):
  // the same query, with no policies on its reads, since 20261125090000 in private.board_content. Its
  // plans must still read the board by its indexes (a filter or a window, and every rebuild of a kept
  // board, run it).
  {
    name: 'board: body of board_content as deployed (as its owner)',
    sql: functionQuery('20261201600000_board_counts_by_workspace.sql', 'board_content', BOARD_CONTENT_ARGS),
    params: (s) => [s.workspace, s.board, JSON.stringify({}), JSON.stringify({})],
    // The same reads as under RLS without the policies' (~670 against ~730), and the drawn cards'
    // sub-tasks and blocking links by their keys (~280 for the seed's 60 sub-tasks and 46 links): ~1070.
    maxBuffers: 1200,
    rls: [],
    as: 'owner',
  },
  {
    name: 'board: body of board_content as deployed, filtered (as its owner)',
    sql: functionQuery('20261201600000_board_counts_by_workspace.sql', 'board_content', BOARD_CONTENT_ARGS),
    params: (s) => [
      s.workspace,
      s.board,
      JSON.stringify({}),
      JSON.stringify({ assignee: 'me', priority: 'urgent', q: 'task 1', today: '2026-11-23' }),
    ],
    maxBuffers: 700, // ~480 against ~530 under RLS, and the drawn cards' sub-tasks and links: ~610
    rls: [],
    as: 'owner',
  },
  {
    name: 'board: body of board_content as deployed, filtered by labels (as its owner)',
    sql: functionQuery('20261201600000_board_counts_by_workspace.sql', 'board_content', BOARD_CONTENT_ARGS),
    params: (s) => [
      s.workspace,
      s.board,
      JSON.stringify({}),
      JSON.stringify({ label: ['Bug', 'design'], today: '2026-11-23' }),
    ],
    maxBuffers: 600,
    rls: [],
    as: 'owner',
  },
  {
    name: "board: board_page's caller check, workspace and project (as its owner)",
    sql: boardFirstStatement(
      '20261128300100_board_page_labels.sql',
      'w.id, w.name, w.slug, w.is_personal, p.id, m.role',
    ),
    params: (s) => [s.slug, 'boa'],
    maxBuffers: 50, // the workspace by slug, my membership, the project by (workspace, key), MFA: ~20
    rls: ['mfa_satisfied'],
    as: 'owner',
  },
  {
    // Then, at the board's plain address, the kept board instead of board_content's query.
    name: 'board: the kept board, by its project (as its owner)',
    sql: 'select c.project, c.people, c.columns from private.board_cache c where c.project_id = $1',
    params: (s) => [s.board],
    maxBuffers: 30, // one row a project and its long values' TOAST pages: 3 (this table's few pages, read whole)
    rls: [],
    as: 'owner',
  },
  // ---- The task panel (app/routes/w.$workspace.p.$project.t.$number/route.tsx) ---------------------
  {
    name: 'task panel: the task by project and number',
    sql: read(
      `SELECT "public"."tasks"."id", "public"."tasks"."number", "public"."tasks"."title", "public"."tasks"."description", "public"."tasks"."status_id" AS "status", "public"."tasks"."priority", "public"."tasks"."assignee_id", "public"."tasks"."due_date", row_to_json("tasks_project_1".*)::jsonb AS "project" FROM "public"."tasks" LEFT JOIN LATERAL ( SELECT "projects_1"."archived_at" FROM "public"."projects" AS "projects_1"  WHERE "projects_1"."id" = "public"."tasks"."project_id" AND "projects_1"."workspace_id" = "public"."tasks"."workspace_id"   LIMIT $1 OFFSET $2 ) AS "tasks_project_1" ON TRUE WHERE  "public"."tasks"."project_id" = $3 AND  "public"."tasks"."workspace_id" = $4 AND  "public"."tasks"."number" = $5   LIMIT $6 OFFSET $7 `,
    ),
    params: (s) => [MAX_ROWS, 0, s.board, s.workspace, 1, MAX_ROWS, 0],
    maxBuffers: 50, // one task, one project: ~30
    rls: ['my_workspace_ids', 'mfa_satisfied'],
  },
  {
    // The timeline (history.server.ts): comments with their authors and the history, embedded in the
    // task, one request.
    name: 'task panel: the timeline, comments with authors and history',
    sql: read(
      `SELECT COALESCE( "tasks_comments_1"."tasks_comments_1", '[]') AS "comments", COALESCE( "tasks_task_history_1"."tasks_task_history_1", '[]') AS "task_history" FROM "public"."tasks" LEFT JOIN LATERAL ( SELECT json_agg("tasks_comments_1")::jsonb AS "tasks_comments_1" FROM (SELECT "comments_1"."id", "comments_1"."body", "comments_1"."created_at", "comments_1"."edited_at", "comments_1"."author_id", row_to_json("comments_author_2".*)::jsonb AS "author" FROM "public"."comments" AS "comments_1" LEFT JOIN LATERAL ( SELECT "profiles_2"."display_name" FROM "public"."profiles" AS "profiles_2"  WHERE "profiles_2"."id" = "comments_1"."author_id"   LIMIT $1 OFFSET $2 ) AS "comments_author_2" ON TRUE WHERE "comments_1"."task_id" = "public"."tasks"."id" AND "comments_1"."workspace_id" = "public"."tasks"."workspace_id"  ORDER BY "comments_1"."created_at" ASC  LIMIT $3 OFFSET $4 ) AS "tasks_comments_1" ) AS "tasks_comments_1" ON TRUE LEFT JOIN LATERAL ( SELECT json_agg("tasks_task_history_1")::jsonb AS "tasks_task_history_1" FROM (SELECT "task_history_1"."id", "task_history_1"."kind", "task_history_1"."data", "task_history_1"."actor_id", "task_history_1"."created_at" FROM "public"."task_history" AS "task_history_1"  WHERE "task_history_1"."task_id" = "public"."tasks"."id" AND "task_history_1"."workspace_id" = "public"."tasks"."workspace_id"  ORDER BY "task_history_1"."id" ASC  LIMIT $5 OFFSET $6 ) AS "tasks_task_history_1" ) AS "tasks_task_history_1" ON TRUE WHERE  "public"."tasks"."id" = $7   LIMIT $8 OFFSET $9 `,
    ),
    params: (s) => [MAX_ROWS, 0, MAX_ROWS, 0, MAX_ROWS, 0, s.task, MAX_ROWS, 0],
    maxBuffers: 300, // the task, 40 comments with ~4 per author lookup, its history: ~180
    rls: ['my_workspace_ids', 'fellow_member_ids', 'mfa_satisfied'],
  },
  {
    // Also the settings page's list, which adds `user_id <> me`.
    name: 'task panel: workspace members (assignee choices, with their pictures)',
    sql: read(
      `SELECT "public"."workspace_members"."user_id", row_to_json("workspace_members_profile_1".*)::jsonb AS "profile" FROM "public"."workspace_members" LEFT JOIN LATERAL ( SELECT "profiles_1"."display_name", "profiles_1"."avatar_path" FROM "public"."profiles" AS "profiles_1"  WHERE "profiles_1"."id" = "public"."workspace_members"."user_id"   LIMIT $1 OFFSET $2 ) AS "workspace_members_profile_1" ON TRUE WHERE  "public"."workspace_members"."workspace_id" = $3   LIMIT $4 OFFSET $5 `,
    ),
    params: (s) => [MAX_ROWS, 0, s.workspace, MAX_ROWS, 0],
    maxBuffers: 200, // 31 members, ~4 per profile lookup: ~140
    rls: ['my_workspace_ids', 'fellow_member_ids', 'mfa_satisfied'],
  },
  {
    name: 'task panel: attachments with uploaders',
    sql: read(
      `SELECT "public"."attachments"."id", "public"."attachments"."name", "public"."attachments"."size", "public"."attachments"."content_type", "public"."attachments"."path", "public"."attachments"."uploaded_by", row_to_json("attachments_uploader_1".*)::jsonb AS "uploader" FROM "public"."attachments" LEFT JOIN LATERAL ( SELECT "profiles_1"."display_name" FROM "public"."profiles" AS "profiles_1"  WHERE "profiles_1"."id" = "public"."attachments"."uploaded_by"   LIMIT $1 OFFSET $2 ) AS "attachments_uploader_1" ON TRUE WHERE  "public"."attachments"."task_id" = $3  ORDER BY "public"."attachments"."created_at" ASC  LIMIT $4 OFFSET $5 `,
    ),
    params: (s) => [MAX_ROWS, 0, s.task, MAX_ROWS, 0],
    maxBuffers: 100, // 8 attachments, ~4 per uploader lookup: ~70
    rls: ['my_workspace_ids', 'fellow_member_ids', 'mfa_satisfied'],
  },

  // ---- The overview ---------------------------------------------------------------------------
  // app/routes/w.$workspace._index.tsx: one call of public.overview_page (the session's status, my
  // membership and the projects, every project's counts by status, my open tasks, the latest activity).
  {
    name: 'overview: body of overview_page (session, membership, counts, my tasks, 30 activity entries)',
    sql: functionQuery('20261128100230_overview_by_category.sql', 'overview_page', [
      ['page.workspace_id', 'uuid'],
      ['today', 'date'],
      ['my_task_limit', 'integer'],
      ['activity_limit', 'integer'],
    ]),
    params: (s) => [s.workspace, '2026-11-23', 8, 30],
    maxBuffers: 450, // membership ~35, counts from the covering index ~70 (7,000 entries), my 112 open tasks ~160, 30 entries ~16, their actors ~50: ~350
    rls: ['my_workspace_ids', 'fellow_member_ids', 'mfa_satisfied'],
  },

  // ---- Search (app/utils/search.server.ts: the search page and the command palette) ---------------
  {
    // The call: a PL/pgSQL function plans as a Function Scan; its statements are planned below.
    name: 'search: rpc search_tasks',
    sql: rpcWithBody('search_tasks', { workspace_slug: 'text', words: 'text[]' }, 'search_tasks'),
    params: (s) => [JSON.stringify({ workspace_slug: s.slug, words: ['invoice'] }), MAX_ROWS, 0],
    maxBuffers: 1000, // the body's (below) and the function's own catalog reads
    rls: [],
  },
  {
    // …and the index reads it makes through search_task_hits (as its owner: why, in its migration). A
    // word in 140 of the workspace's titles: the candidates from tasks_title_words_idx.
    name: 'search: body of search_task_hits, a word in some titles (as its owner)',
    sql: searchHitsQuery(),
    params: (s) => searchHitsParams(s, "'invo':*"),
    maxBuffers: 600,
    rls: ['my_workspace_ids'],
    as: 'owner',
  },
  {
    // Words in every title and every comment: the titles fill the page, so the descriptions and
    // comments are not read at all, rather than the workspace's 7,000 tasks and comments.
    name: 'search: body of search_task_hits, words everywhere (as its owner)',
    sql: searchHitsQuery(),
    params: (s) => searchHitsParams(s, "'task':* & 'something':*"),
    maxBuffers: 1200,
    rls: ['my_workspace_ids'],
    as: 'owner',
  },
  {
    name: 'search: body of search_task_hits, a word in comments (as its owner)',
    sql: searchHitsQuery(),
    params: (s) => searchHitsParams(s, "'comment':*"),
    maxBuffers: 1200,
    rls: ['my_workspace_ids'],
    as: 'owner',
  },
  {
    name: 'search: body of search_task_hits, a task key (as its owner)',
    sql: searchHitsQuery(),
    params: (s) => searchHitsParams(s, "'boa-12':*", { project: 'BOA', number: 12 }),
    maxBuffers: 300,
    rls: ['my_workspace_ids'],
    as: 'owner',
  },

  // ---- Account (app/routes/account._index.tsx, account.security.tsx) ----------------------------
  {
    // app/routes/account._index.tsx: account_page, the session check and the profile in one call.
    name: 'account: body of account_page (session, my profile)',
    sql: functionQuery('20261124120000_account_page_plpgsql.sql', 'account_page', []),
    params: () => [],
    maxBuffers: 30, // one session by id, one profile: ~10
    rls: ['fellow_member_ids'],
  },
  {
    name: 'account security: rpc my_sessions',
    sql: rpcSetof('my_sessions'),
    params: () => [MAX_ROWS, 0],
    maxBuffers: 20, // my sessions: ~5
    rls: [],
  },

  // ---- Every signed-in request (app/utils/session/user.server.ts) -----------------------------------------
  {
    // A scalar RPC: PostgREST takes the first value. Security definer, so its body runs as postgres.
    name: 'every page: rpc session_status',
    sql:
      `WITH pgrst_source AS (SELECT pgrst_call.pgrst_scalar FROM (SELECT "public"."session_status"() pgrst_scalar) pgrst_call) ` +
      `SELECT null::bigint AS total_result_set, 1 AS page_total, coalesce(json_agg(_postgrest_t.pgrst_scalar)->0, 'null') AS body, ` +
      `nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status, ` +
      `'' AS response_inserted FROM (SELECT "session_status".* FROM "pgrst_source" AS "session_status"     LIMIT $1 OFFSET $2) _postgrest_t`,
    params: () => [MAX_ROWS, 0],
    maxBuffers: 20, // one session by id: ~5
    rls: [],
  },
  {
    name: 'every page: body of session_status (as its owner)',
    sql:
      `select case when not exists (select 1 from auth.sessions s where s.id = nullif(auth.jwt() ->> 'session_id', '')::uuid ` +
      `and s.user_id = auth.uid() and (s.not_after is null or s.not_after > now())) then 'ended' ` +
      `when not public.mfa_satisfied() then 'mfa_required' else 'active' end`,
    params: () => [],
    maxBuffers: 20, // one session by id: ~5
    rls: [],
    as: 'owner',
  },
];

// ---------------------------------------------------------------------------------------------
// Plans.

function nodes(root: PlanNode): PlanNode[] {
  return [root, ...(root.Plans ?? []).flatMap(nodes)];
}

/** Everything a node says about itself (filters, outputs, conditions), without its children. */
function ownText(node: PlanNode): string {
  const { Plans: _children, ...own } = node;
  return JSON.stringify(own);
}

/**
 * Where a helper is called per row: a node that names a helper, outside any InitPlan or SubPlan
 * that ran at most once, unless the node itself ran once over at most one row (a plain
 * `select helper()`). A hashed SubPlan, `x in (select helper())`, runs its set-returning call once
 * and probes a hash table per row: that is once per statement too.
 */
function perRowHelperCalls(root: PlanNode): string[] {
  const found: string[] = [];
  const walk = (node: PlanNode, insideOnce: boolean) => {
    const startsSubplan =
      node['Parent Relationship'] === 'InitPlan' || node['Parent Relationship'] === 'SubPlan';
    const once = startsSubplan ? node['Actual Loops'] <= 1 : insideOnce;
    const seen = Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0);
    const single = node['Actual Loops'] <= 1 && seen <= 1;
    const named = HELPERS.filter((h) => new RegExp(`\\b${h}\\(`).test(ownText(node)));
    if (named.length > 0 && !once && !single)
      found.push(`${node['Node Type']} (loops ${node['Actual Loops']}) calls ${named.join(', ')}`);
    for (const child of node.Plans ?? []) walk(child, once);
  };
  walk(root, false);
  return found;
}

function sequentialScansOfGrowingTables(root: PlanNode): string[] {
  return nodes(root)
    .filter((n) => n['Node Type'] === 'Seq Scan' && GROWING.includes(n['Relation Name'] ?? ''))
    .map((n) => `Seq Scan on ${n['Relation Name']}`);
}

const buffers = (plan: Explained) => plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'];

/** A one-line outline of the plan, for failure messages and docs/performance.md. */
function outline(node: PlanNode, depth = 0): string {
  const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  const fn = typeof node['Function Name'] === 'string' ? ` ${node['Function Name']}()` : '';
  const sub = node['Subplan Name'] ? ` [${node['Subplan Name']}]` : '';
  const line = `${'  '.repeat(depth)}${node['Node Type']}${on}${using}${fn}${sub} rows=${String(node['Actual Rows'])} loops=${node['Actual Loops']} buffers=${node['Shared Hit Blocks'] + node['Shared Read Blocks']}`;
  return [line, ...(node.Plans ?? []).map((c) => outline(c, depth + 1))].join('\n');
}

const literal = (value: unknown) =>
  value === null ? 'null' : pg.Client.prototype.escapeLiteral(String(value));

/**
 * Runs `explain` on `query` in a transaction set up the way PostgREST sets up each request, then
 * rolls back. `generic`: prepare the statement and force its generic plan, as a prepared statement
 * gets once PostgreSQL stops replanning it per call.
 */
async function explain(query: PlannedQuery, generic: boolean): Promise<Explained> {
  // PostgREST's connections live long: the catalog caches are warm. The first run warms them (a
  // cold one reads up to a hundred catalog pages more); the second is the one measured.
  await explainOnce(query, generic);
  return explainOnce(query, generic);
}

async function explainOnce(query: PlannedQuery, generic: boolean): Promise<Explained> {
  const params = query.params(scene);
  await db.query('begin');
  try {
    await db.query(
      `select set_config('search_path', '"public", "public", "extensions"', true),
              set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.method', 'GET', true)`,
      [query.as === 'owner' ? 'postgres' : 'authenticated', scene.claims],
    );
    const options = 'explain (analyze, buffers, verbose, format json)';
    let rows: Array<{ 'QUERY PLAN': Explained[] }>;
    if (generic) {
      await db.query('set local plan_cache_mode = force_generic_plan');
      await db.query(`prepare planned as ${query.sql}`);
      const args = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
      rows = (await db.query(`${options} execute planned${args}`)).rows;
      await db.query('deallocate planned');
    } else {
      rows = (await db.query(`${options} ${query.sql}`, params)).rows;
    }
    const plan = rows[0]?.['QUERY PLAN'][0];
    if (!plan) throw new Error(`no plan for ${query.name}`);
    return plan;
  } finally {
    await db.query('rollback');
  }
}

// ---------------------------------------------------------------------------------------------
// The data.

async function api(
  pathname: string,
  key: string,
  body: unknown,
  token = key,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${backend.apiUrl}${pathname}`, {
    method: 'POST',
    headers: { apikey: key, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Me, signed in through the auth API: the claims are those of a real session (session_status). */
async function signedInMe(): Promise<{ id: string; claims: string }> {
  const email = 'planner@example.test';
  const password = 'correct-horse-9';
  await api('/auth/v1/admin/users', backend.serviceRoleKey, { email, password, email_confirm: true });
  const session = await api(
    '/auth/v1/token?grant_type=password',
    backend.anonKey,
    { email, password },
    backend.anonKey,
  );
  const claims = jose.decodeJwt(String(session.access_token));
  return { id: String(claims.sub), claims: JSON.stringify(claims) };
}

/** Everyone else and all the rows, in SQL: thousands of rows through the API would take minutes. */
async function seed(me: { id: string; claims: string }): Promise<Scene> {
  const q = async (text: string, values: unknown[] = []) => (await db.query(text, values)).rows;
  await q('begin');
  // Activity rows record auth.uid() as their actor.
  await q(`select set_config('request.jwt.claims', $1, true)`, [me.claims]);
  // People who cannot sign in (no password): the auth columns as seed.sql fills them. Each gets a
  // profile and a personal workspace from the auth.users triggers.
  await q(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                             confirmation_token, recovery_token, email_change_token_new, email_change,
                             email_change_token_current, phone_change, phone_change_token, reauthentication_token,
                             raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
            'person-' || i || '@example.test', '', now(), '', '', '', '', '', '', '', '',
            '{"provider": "email", "providers": ["email"]}', jsonb_build_object('display_name', 'Person ' || i),
            now(), now()
       from generate_series(1, $1::int) i`,
    [PEOPLE],
  );
  const people = (await q(`select id from auth.users where email like 'person-%' order by email`)).map(
    (r: { id: string }) => r.id,
  );
  const team = people.slice(0, MY_TEAM);
  const neighbours = people.slice(MY_TEAM, MY_TEAM + 1 + NEIGHBOUR_TEAM);

  const [mine] = await q(
    `insert into public.workspaces (name, slug, created_by) values ('Planning', 'planning', $1) returning id`,
    [me.id],
  );
  const [theirs] = await q(
    `insert into public.workspaces (name, slug, created_by) values ('Neighbours', 'neighbours', $1) returning id`,
    [neighbours[0]],
  );
  await q(
    `insert into public.workspace_members (workspace_id, user_id, role)
     select $1::uuid, $2::uuid, 'owner'::public.workspace_role
     union all select $1::uuid, unnest($3::uuid[]), 'member'`,
    [mine.id, me.id, team],
  );
  await q(
    `insert into public.workspace_members (workspace_id, user_id, role)
     select $1::uuid, $2::uuid, 'owner'::public.workspace_role
     union all select $1::uuid, unnest($3::uuid[]), 'member'`,
    [theirs.id, neighbours[0], neighbours.slice(1)],
  );
  const project = async (ws: string, name: string) =>
    (await q(`insert into public.projects (workspace_id, name) values ($1, $2) returning id`, [ws, name]))[0]
      .id as string;
  const board = await project(mine.id, 'Board');
  const side = await project(mine.id, 'Side');
  const big = await project(theirs.id, 'Big');

  // Tasks in every status, a third unassigned, a few mentioning an invoice (for search).
  const tasks = (ws: string, proj: string, n: number, assignees: string[]) =>
    q(
      `insert into public.tasks (workspace_id, project_id, title, description, status_id, priority, assignee_id)
       select $1::uuid, $2::uuid, 'Task ' || i || case when i % 50 = 0 then ' invoice' else '' end,
              'Something to do, number ' || i,
              (array(select s.id from public.project_statuses s where s.project_id = $2::uuid order by s.position))[1 + i % 4],
              (array['none', 'low', 'medium', 'high', 'urgent'])[1 + i % 5]::public.task_priority,
              case when i % 3 = 0 then null else ($4::uuid[])[1 + i % array_length($4::uuid[], 1)] end
         from generate_series(1, $3::int) i`,
      [ws, proj, n, assignees],
    );
  await tasks(mine.id, board, BOARD_TASKS, [me.id, ...team]);
  await tasks(mine.id, side, SIDE_TASKS, [me.id, ...team]);
  await tasks(theirs.id, big, NEIGHBOUR_TASKS, neighbours);
  const [task] = await q(`select id from public.tasks where project_id = $1 and number = 1`, [board]);

  // Comments: a discussion on the task the panel opens, one on every other task of mine, and the
  // neighbours' as many again. Attachments likewise.
  const comments = (ws: string, where: string, values: unknown[], perTask: number, authors: string[]) =>
    q(
      `insert into public.comments (workspace_id, task_id, author_id, body)
       select $1::uuid, t.id, ($2::uuid[])[1 + (t.number + c) % array_length($2::uuid[], 1)], 'Comment ' || c
         from public.tasks t, generate_series(1, ${perTask}) c where ${where}`,
      [ws, authors, ...values],
    );
  await comments(mine.id, 't.id = $3', [task.id], 40, [me.id, ...team]);
  await comments(mine.id, 't.workspace_id = $1 and t.id <> $3', [task.id], 1, [me.id, ...team]);
  await comments(theirs.id, 't.workspace_id = $1', [], 1, neighbours);
  const attachments = (ws: string, where: string, values: unknown[], perTask: number, uploaders: string[]) =>
    q(
      `insert into public.attachments (workspace_id, task_id, path, name, size, content_type, uploaded_by)
       select $1::uuid, t.id, $1::uuid || '/' || t.id || '/' || gen_random_uuid() || '.png', 'file-' || a || '.png', 1000,
              'image/png', ($2::uuid[])[1 + (t.number + a) % array_length($2::uuid[], 1)]
         from public.tasks t, generate_series(1, ${perTask}) a where ${where}`,
      [ws, uploaders, ...values],
    );
  await attachments(mine.id, 't.id = $3', [task.id], 8, [me.id, ...team]);
  await attachments(mine.id, 't.project_id = $3 and t.number % 5 = 0', [board], 1, [me.id, ...team]);
  await attachments(theirs.id, 't.workspace_id = $1 and t.number % 2 = 0', [], 1, neighbours);
  // Sub-tasks: a tenth of each project's tasks under every tenth task (three each); and links, each
  // seventh task blocking the next, and some of the board's tasks blocked by the side project's.
  await q(
    `update public.tasks t set parent_id = p.id
       from public.tasks p
      where p.project_id = t.project_id and t.number > 10 and t.number % 10 in (1, 2, 3)
        and p.number = t.number - t.number % 10`,
  );
  await q(
    `insert into public.task_links (workspace_id, from_task_id, to_task_id, kind)
     select t.workspace_id, t.id, u.id, case when t.number % 3 = 0 then 'blocks' else 'relates' end
       from public.tasks t join public.tasks u on u.project_id = t.project_id and u.number = t.number + 1
      where t.number % 7 = 0
     union all
     select t.workspace_id, t.id, u.id, 'blocks'
       from public.tasks t join public.tasks u on u.workspace_id = t.workspace_id and u.number = t.number
      where t.project_id = $1 and u.project_id = $2 and t.number % 11 = 0`,
    [side, board],
  );
  await q('commit');
  // Tables as autovacuum leaves them on a project in use: statistics, and no dead rows (each task
  // insert updated its project's next_task_number, leaving thousands of dead versions of 3 rows).
  await q('vacuum analyze');
  return { me: me.id, claims: me.claims, workspace: mine.id, slug: 'planning', board, task: task.id };
}

beforeAll(async () => {
  backend = await startPrivateBackend('plans');
  // As `postgres`, the role migrations run as: it owns the tables and may become `authenticated`.
  db = dbClient('postgres', backend.dbUrl);
  await db.connect();
  scene = await seed(await signedInMe());
}, 300_000);

afterAll(async () => {
  await db?.end();
  await backend?.stop();
});

// ---------------------------------------------------------------------------------------------

describe('the data is what the plans are checked against', () => {
  it('the board query, as the member, sees the board and nothing of the neighbours', async () => {
    await db.query('begin');
    try {
      await db.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [scene.claims],
      );
      // The page's own call (its statements are the ones planned above).
      const { rows } = await db.query<{ answer: BoardAnswer }>(
        `select public.board_page($1, 'boa', '{}', '{"today": "2026-11-23"}') as answer`,
        [scene.slug],
      );
      const answer = rows[0]?.answer;
      expect(answer?.session).toBe('active');
      // Every column's count is exact (the whole board), and each shows its first 50 cards.
      const counts = answer?.columns.map((c) => c.count) ?? [];
      expect(counts.reduce((a, b) => a + b, 0)).toBe(BOARD_TASKS);
      for (const column of answer?.columns ?? [])
        expect(column.tasks).toHaveLength(Math.min(50, column.count));
      const visible = await db.query<{ n: string }>('select count(*) as n from public.tasks');
      expect(Number(visible.rows[0]?.n)).toBe(BOARD_TASKS + SIDE_TASKS);
    } finally {
      await db.query('rollback');
    }
  });

  it('the filtered board counts and shows the matching cards of the whole project, with their comments', async () => {
    const expected = await db.query<{ status: string; n: string }>(
      `select status_id::text as status, count(*) as n from public.tasks
        where project_id = $1 and assignee_id = $2 and priority = 'urgent' and title ilike '%task 1%'
        group by status_id`,
      [scene.board, scene.me],
    );
    await db.query('begin');
    try {
      await db.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [scene.claims],
      );
      const { rows } = await db.query<{ answer: BoardAnswer }>(
        `select public.board_page($1, 'boa', '{}', $2) as answer`,
        [
          scene.slug,
          JSON.stringify({ assignee: 'me', priority: 'urgent', q: 'task 1', today: '2026-11-23' }),
        ],
      );
      const columns = rows[0]?.answer.columns ?? [];
      const byStatus = Object.fromEntries(expected.rows.map((r) => [r.status, Number(r.n)]));
      expect(columns.reduce((sum, c) => sum + c.total, 0)).toBe(BOARD_TASKS);
      for (const column of columns) {
        expect(column.count).toBe(byStatus[column.id] ?? 0);
        expect(column.tasks).toHaveLength(Math.min(50, column.count));
      }
      expect(columns.some((c) => c.count > 0)).toBe(true);
      // Every task but #1 has one comment (#1 has 40); every fifth has an attachment.
      for (const task of columns.flatMap((c) => c.tasks)) {
        expect(task.comments).toBe(task.number === 1 ? 40 : 1);
        expect(task.attachments).toBe(task.number === 1 ? 8 : task.number % 5 === 0 ? 1 : 0);
      }
    } finally {
      await db.query('rollback');
    }
  });
});

describe('the overview is what its plan is checked against', () => {
  it('overview_page, as the member, counts the whole workspace and lists my open tasks and the newest activity', async () => {
    await db.query('begin');
    try {
      await db.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [scene.claims],
      );
      const { rows } = await db.query<{ answer: OverviewAnswer }>(
        `select public.overview_page($1, '2026-11-23', 8, 30) as answer`,
        [scene.slug],
      );
      const answer = rows[0]?.answer;
      expect(answer?.session).toBe('active');
      expect(answer?.counts.reduce((sum, c) => sum + c.count, 0)).toBe(BOARD_TASKS + SIDE_TASKS);
      expect(answer?.my_tasks).toHaveLength(8);
      expect(answer?.my_task_count).toBeGreaterThan(8);
      expect(answer?.activity).toHaveLength(30);
      const { rows: none } = await db.query<{ answer: OverviewAnswer }>(
        `select public.overview_page('neighbours', '2026-11-23') as answer`,
      );
      expect(none[0]?.answer).toMatchObject({ membership: null, counts: [], my_tasks: [], activity: [] });
    } finally {
      await db.query('rollback');
    }
  });
});

describe.each([
  ['custom plan', false],
  ['generic plan', true],
])('query plans under RLS (%s)', (_kind, generic) => {
  it.each(queries.map((q) => [q.name, q] as const))('%s', async (_name, query) => {
    const plan = await explain(query, generic);
    const shape = outline(plan.Plan);
    if (process.env.PLANS_REPORT)
      console.log(
        `${query.name} (${generic ? 'generic' : 'custom'}): ${buffers(plan)} buffers, ` +
          `${plan['Execution Time'].toFixed(1)} ms\n${shape}`,
      );
    expect(sequentialScansOfGrowingTables(plan.Plan), shape).toEqual([]);
    expect(perRowHelperCalls(plan.Plan), shape).toEqual([]);
    for (const helper of query.rls)
      expect(JSON.stringify(plan), `${helper} is called`).toContain(`${helper}(`);
    expect(buffers(plan), shape).toBeLessThanOrEqual(query.maxBuffers);
  });
});
