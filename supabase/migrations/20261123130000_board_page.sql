-- board_page: everything a board's first paint needs, in one request.
--
-- A board load used to ask three times (is the session still active, the workspace and its
-- projects, the board with every task). This answers all three at once, and only a window of each
-- column: its first `shown ->> status` cards (50 unless asked for more, at most 10,000), with the
-- column's exact count. Runs as the caller: RLS decides what they see, as it did for the queries it
-- replaces. A session that is not active gets its status and nothing else.
--
-- Answer:
--   { "session": "active" | "mfa_required" | "ended",
--     "membership": null | { "workspace": {id, name, slug, is_personal}, "role", "display_name",
--                            "projects": [{id, name, archived_at}] },
--     "project": null | {id, name, description, archived_at},
--     "columns": [{ "status", "count", "tasks": [{id, number, title, status, position, priority,
--                                                 due_date, assignee: null | {display_name}}] }] }
-- A column's window is its first cards by (position, id). Under RLS only leakproof comparisons can
-- be index conditions, and enum equality (the status) is not one: an index led by (project_id, status)
-- can only narrow by project, then sort every card of the column. This one hands a project's cards
-- over in board order, so a window reads about four windows' worth of rows (the other columns' cards
-- are skipped by the status filter) and stops. It serves all that (project_id, status, position) did.
create index tasks_board_order_idx on public.tasks (project_id, position, id);
-- Not CONCURRENTLY: the CLI runs each migration file in a transaction (see .squawk.toml), and
-- dropping an index holds its table's lock only for the catalog change.
-- squawk-ignore require-concurrent-index-deletion
drop index public.tasks_board_idx;

create function public.board_page(
  workspace_slug text,
  project_id uuid,
  shown jsonb default '{}'::jsonb
) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  -- PL/pgSQL, not SQL: its statements are planned with the call's values (a custom plan), so the
  -- planner sees how many tasks this project has and reads each window from the index.
  return (
  with session as (
    select public.session_status() as status
  ),
  membership as (
    select w.id, w.name, w.slug, w.is_personal, m.role, pr.display_name
      from public.workspaces w
      join public.workspace_members m on m.workspace_id = w.id and m.user_id = (select auth.uid())
      left join public.profiles pr on pr.id = m.user_id
     where w.slug = board_page.workspace_slug
       and (select status from session) = 'active'
  ),
  project as (
    select p.id, p.name, p.description, p.archived_at
      from public.projects p
      join membership on membership.id = p.workspace_id
     where p.id = board_page.project_id
  ),
  -- Every column's count in one pass over the project's tasks.
  counts as materialized (
    select t.status, count(*) as count
      from public.tasks t
     where t.project_id = board_page.project_id
       and exists (select 1 from project)
     group by t.status
  ),
  columns as (
    select s.status, s.n,
           -- A window's size: a whole number from the caller, else 50; never under 1 or over 10,000.
           least(greatest(
             case when board_page.shown ->> s.status::text ~ '^[0-9]{1,5}$'
                  then (board_page.shown ->> s.status::text)::int else 50 end, 1), 10000) as size
      from unnest(enum_range(null::public.task_status)) with ordinality as s(status, n)
     where exists (select 1 from project)
  ),
  -- Each column's window: its first cards in board order, read from the index until it is full.
  windows as materialized (
    select c.n, t.*
      from columns c
      cross join lateral (
        select t.id, t.number, t.title, t.status, t.position, t.priority, t.due_date, t.assignee_id
          from public.tasks t
         where t.project_id = board_page.project_id and t.status = c.status
         order by t.position, t.id
         limit c.size
      ) t
  ),
  -- The assignees' names, each looked up once by its key, however many cards they have.
  names as materialized (
    select pr.id, pr.display_name
      from public.profiles pr
     where pr.id = any (array(select distinct w.assignee_id from windows w where w.assignee_id is not null))
  )
  select json_build_object(
    'session', (select status from session),
    'membership', (
      select json_build_object(
        'workspace', json_build_object('id', m.id, 'name', m.name, 'slug', m.slug, 'is_personal', m.is_personal),
        'role', m.role,
        'display_name', m.display_name,
        'projects', (
          select coalesce(json_agg(json_build_object('id', p.id, 'name', p.name, 'archived_at', p.archived_at)), '[]'::json)
            from public.projects p
           where p.workspace_id = m.id
        )
      )
        from membership m
    ),
    'project', (select row_to_json(project) from project),
    'columns', (
      select json_agg(json_build_object(
               'status', c.status,
               'count', coalesce((select n.count from counts n where n.status = c.status), 0),
               'tasks', (
                 select coalesce(json_agg(json_build_object(
                          'id', w.id, 'number', w.number, 'title', w.title, 'status', w.status,
                          'position', w.position, 'priority', w.priority, 'due_date', w.due_date,
                          'assignee', case when nm.display_name is null then null
                                           else json_build_object('display_name', nm.display_name) end)
                          order by w.position, w.id), '[]'::json)
                   from windows w
                   left join names nm on nm.id = w.assignee_id
                  where w.n = c.n
               )
             ) order by c.n)
        from columns c
    )
  )
  );
end
$$;

revoke execute on function public.board_page(text, uuid, jsonb) from public, anon;
grant execute on function public.board_page(text, uuid, jsonb) to authenticated;
