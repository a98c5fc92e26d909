-- board_page checks its caller once and reads as its owner (for speed). Under RLS every table
-- a statement reads pays its policies: a call of my_workspace_ids() and one of the restrictive
-- mfa_satisfied() per table read, 17 and 7 calls a page, and about half of the function's time
-- (4.84 against 2.49 ms a call, medians of 5 x 300 alternated calls on the demo board).
--
-- Now security definer, with a fixed search_path, like the policies' own helpers: the first
-- statement finds the workspace and project only for a member of the workspace whose session meets
-- the MFA rule, which is the whole of what the policies of workspaces, projects, workspace_members,
-- profiles, tasks, comments and attachments grant a reader; every later read is by those ids. So it
-- answers exactly what the caller could read under RLS, and nothing for anyone else.
-- tests/integration/board-page-access.test.ts holds it to that: the same function run as
-- security invoker, under RLS, must give the same answer for every person, workspace and state.
--
-- Same arguments, same answer, same grants (authenticated only).

create or replace function public.board_page(
  workspace_slug text,
  project_key text,
  shown jsonb default '{}'::jsonb,
  filters jsonb default '{}'::jsonb
) returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
-- Labelled with the function's name, so the project's id reads like the arguments: board_page.project_id.
<<board_page>>
declare
  ws_id uuid;
  ws_name text;
  ws_slug text;
  ws_is_personal boolean;
  project_id uuid;
begin
  -- The workspace by its slug, and its project by its key, any case (addresses carry it in lower
  -- case), found only for a member of the workspace whose session meets the MFA rule: exactly the
  -- rows RLS shows them (the workspaces, projects and members policies admit my_workspace_ids(),
  -- every role, and the restrictive policy mfa_satisfied()). For anyone else nothing is found,
  -- whether the workspace exists or not, and every read below is by these ids, so it finds nothing
  -- either.
  select w.id, w.name, w.slug, w.is_personal, p.id
    into ws_id, ws_name, ws_slug, ws_is_personal, project_id
    from public.workspaces w
    join public.workspace_members m on m.workspace_id = w.id and m.user_id = auth.uid()
    left join public.projects p on p.workspace_id = w.id and p.key = upper(board_page.project_key)
   where w.slug = board_page.workspace_slug
     and public.mfa_satisfied();
  -- PL/pgSQL, not SQL: the query below is prepared once per connection and takes the ids as
  -- parameters; its plan reads each window from the board-order index (query-plans.test.ts checks
  -- it as a custom plan and as a generic one).
  return (
  with session as (
    select public.session_status() as status
  ),
  -- Each table is read once, and only by the workspace's and the project's ids.
  members as materialized (
    select wm.user_id, wm.role
      from public.workspace_members wm
     where wm.workspace_id = board_page.ws_id
       and (select status from session) = 'active'
  ),
  membership as (
    select m.role from members m where m.user_id = (select auth.uid())
  ),
  -- The members' profiles, each looked up once by its key.
  member_profiles as materialized (
    select pr.id, pr.display_name, pr.avatar_path
      from public.profiles pr
     where pr.id = any (array(select m.user_id from members m))
       and exists (select 1 from membership)
  ),
  workspace_projects as materialized (
    select p.id, p.key, p.name, p.description, p.archived_at
      from public.projects p
     where p.workspace_id = board_page.ws_id
       and exists (select 1 from membership)
  ),
  project as (
    select p.id, p.key, p.name, p.description, p.archived_at
      from workspace_projects p
     where p.id = board_page.project_id
  ),
  -- The filter's values, read once; `filtered` when any is set.
  f as (
    select nullif(board_page.filters ->> 'assignee', '') as assignee,
           nullif(board_page.filters ->> 'priority', '') as priority,
           nullif(board_page.filters ->> 'due', '') as due,
           nullif(btrim(board_page.filters ->> 'q'), '') as q,
           coalesce((board_page.filters ->> 'today')::date, current_date) as today
  ),
  filtered as (
    select (f.assignee is not null or f.priority is not null or f.due is not null or f.q is not null) as active
      from f
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
  -- With a filter: the project's matching cards, in one pass (a window read from the board-order
  -- index could read the whole project per column before it found 50 that match, or none).
  matching as materialized (
    select t.id, t.number, t.title, t.status, t.position, t.priority, t.due_date, t.assignee_id
      from public.tasks t, f
     where t.project_id = board_page.project_id
       and (select filtered.active from filtered)
       and exists (select 1 from project)
       and (f.assignee is null
            or (f.assignee = 'none' and t.assignee_id is null)
            or (f.assignee = 'me' and t.assignee_id = (select auth.uid()))
            or t.assignee_id::text = f.assignee)
       and (f.priority is null or t.priority::text = f.priority)
       and (f.due is null
            or (f.due = 'overdue' and t.due_date < f.today and t.status <> 'done')
            or (f.due = 'week' and t.due_date between f.today and f.today + 6))
       and (f.q is null
            or t.title ilike '%' || replace(replace(replace(f.q, '\', '\\'), '%', '\%'), '_', '\_') || '%'
            or t.number::text = ltrim(f.q, '#'))
  ),
  -- Each column's window: its first cards in board order. Unfiltered, read from the index until it is
  -- full; filtered, the first of the matching cards.
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
     where not (select filtered.active from filtered)
    union all
    select c.n, m.id, m.number, m.title, m.status, m.position, m.priority, m.due_date, m.assignee_id
      from (select m.*, row_number() over (partition by m.status order by m.position, m.id) as r
              from matching m) m
      join columns c on c.status = m.status
     where m.r <= c.size
  ),
  -- Comments and attachments of the drawn cards only, each card's looked up by its key.
  comment_counts as materialized (
    select c.task_id, count(*) as count
      from public.comments c
     where c.task_id = any (array(select w.id from windows w))
     group by c.task_id
  ),
  attachment_counts as materialized (
    select a.task_id, count(*) as count
      from public.attachments a
     where a.task_id = any (array(select w.id from windows w))
     group by a.task_id
  )
  select json_build_object(
    'session', (select status from session),
    'membership', (
      select json_build_object(
        'workspace', json_build_object('id', board_page.ws_id, 'name', board_page.ws_name,
                                       'slug', board_page.ws_slug, 'is_personal', board_page.ws_is_personal),
        'role', m.role,
        'display_name', (select pr.display_name from member_profiles pr where pr.id = (select auth.uid())),
        'projects', (
          select coalesce(json_agg(json_build_object('id', p.id, 'key', p.key, 'name', p.name, 'archived_at', p.archived_at)), '[]'::json)
            from workspace_projects p
        )
      )
        from membership m
    ),
    'project', (select row_to_json(project) from project),
    'people', (
      select coalesce(json_agg(json_build_object('id', pr.id, 'display_name', pr.display_name,
                                                 'avatar_path', pr.avatar_path)
                               order by pr.display_name), '[]'::json)
        from member_profiles pr
       where exists (select 1 from project)
    ),
    'columns', (
      select json_agg(json_build_object(
               'status', c.status,
               'count', case when (select filtered.active from filtered)
                             then (select count(*) from matching m where m.status = c.status)
                             else coalesce((select n.count from counts n where n.status = c.status), 0) end,
               'total', coalesce((select n.count from counts n where n.status = c.status), 0),
               'tasks', (
                 select coalesce(json_agg(json_build_object(
                          'id', w.id, 'number', w.number, 'title', w.title, 'status', w.status,
                          'position', w.position, 'priority', w.priority, 'due_date', w.due_date,
                          'assignee_id', w.assignee_id,
                          'comments', coalesce(cc.count, 0), 'attachments', coalesce(ac.count, 0))
                          order by w.position, w.id), '[]'::json)
                   from windows w
                   left join comment_counts cc on cc.task_id = w.id
                   left join attachment_counts ac on ac.task_id = w.id
                  where w.n = c.n
               )
             ) order by c.n)
        from columns c
    )
  )
  );
end
$$;

revoke execute on function public.board_page(text, text, jsonb, jsonb) from public, anon;
grant execute on function public.board_page(text, text, jsonb, jsonb) to authenticated;
