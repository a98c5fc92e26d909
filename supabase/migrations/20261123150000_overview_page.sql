-- overview_page: a workspace's overview in one request.
--
-- The overview shows every project with its tasks by status and how many are overdue, the caller's
-- own open tasks across the workspace, and the latest activity with who did it. Like board_page it
-- also answers the session check and the membership the layout needs, so the page is one call.
-- Runs as the caller: RLS decides what they see. A session that is not active gets its status and
-- nothing else; a workspace the caller is not in, a null membership and nothing else.
--
-- `today` is the caller's calendar date (their time zone is the app's to know, not the database's):
-- a task is overdue when it is not done and its due date is before it.
--
-- Answer:
--   { "session": "active" | "mfa_required" | "ended",
--     "membership": null | { "workspace": {id, name, slug, is_personal}, "role", "display_name",
--                            "projects": [{id, name, archived_at}] },
--     "counts": [{project_id, status, count, overdue}],          -- only the statuses a project has
--     "my_tasks": [{id, project_id, number, title, status, priority, due_date}],
--     "my_task_count": n,                                        -- all my open tasks here
--     "activity": [{id, kind, data, created_at, project_id, actor_id}],
--     "people": [{id, display_name, avatar_path}] }  -- the activity's actors, and whom tasks were assigned to
-- My tasks come soonest due first (undated last), then most urgent; at most `my_task_limit` of
-- them (1 to 200). Activity is the newest `activity_limit` entries (1 to 100).

-- The counts read every task of the workspace; this index holds all they need (RLS reads only
-- workspace_id), so they are an index-only scan, already grouped, instead of a visit to every task's
-- heap page. It serves every lookup by workspace that tasks_workspace_id_idx did, which it replaces.
create index tasks_overview_idx on public.tasks (workspace_id, project_id, status) include (due_date);
-- Not CONCURRENTLY: the CLI runs each migration file in a transaction (see .squawk.toml), and
-- dropping an index holds its table's lock only for the catalog change.
-- squawk-ignore require-concurrent-index-deletion
drop index public.tasks_workspace_id_idx;

create function public.overview_page(
  workspace_slug text,
  today date,
  my_task_limit integer default 8,
  activity_limit integer default 30
) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
<<page>>
declare
  workspace_id uuid;
begin
  -- The workspace's id first (RLS finds it only for a member), so the query below is planned with it
  -- as a value, as every statement of a PL/pgSQL function is planned with its variables' values: the
  -- planner then knows from the statistics how big this workspace is. Given the id as a subquery's
  -- result instead, it assumed a typical workspace (a few rows of activity) and read all of a big
  -- one's activity to sort it, rather than the newest entries from the index.
  select w.id into page.workspace_id from public.workspaces w where w.slug = overview_page.workspace_slug;
  return (
  with session as (
    select public.session_status() as status
  ),
  membership as (
    select w.id, w.name, w.slug, w.is_personal, m.role, pr.display_name
      from public.workspaces w
      join public.workspace_members m on m.workspace_id = w.id and m.user_id = (select auth.uid())
      left join public.profiles pr on pr.id = m.user_id
     where w.id = page.workspace_id
       and (select status from session) = 'active'
  ),
  -- Every project's tasks by status, with the overdue ones among them: one pass over the
  -- workspace's entries in tasks_overview_idx.
  counts as materialized (
    select t.project_id, t.status, count(*) as count,
           count(*) filter (where t.status <> 'done' and t.due_date < overview_page.today) as overdue
      from public.tasks t
     where t.workspace_id = page.workspace_id
       and exists (select 1 from membership)
     group by t.project_id, t.status
  ),
  mine as materialized (
    select t.id, t.project_id, t.number, t.title, t.status, t.priority, t.due_date
      from public.tasks t
     where t.workspace_id = page.workspace_id
       and exists (select 1 from membership)
       and t.assignee_id = (select auth.uid())
       and t.status <> 'done'
  ),
  -- The newest entries, read from activity_workspace_recent_idx until there are enough.
  recent as materialized (
    select a.id, a.kind, a.data, a.created_at, a.project_id, a.actor_id
      from public.activity a
     where a.workspace_id = page.workspace_id
       and exists (select 1 from membership)
     order by a.created_at desc
     limit least(greatest(overview_page.activity_limit, 1), 100)
  ),
  -- Who did it, and to whom a task was assigned: each person looked up once by key (a join would
  -- read the profiles under their policy, a hashed SubPlan, which cannot use the key).
  people as materialized (
    select pr.id, pr.display_name, pr.avatar_path
      from public.profiles pr
     where pr.id = any (array(
             select distinct who.id
               from recent r
               cross join lateral (values (r.actor_id), ((r.data ->> 'assignee_id')::uuid)) as who (id)
              where who.id is not null))
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
    'counts', (
      select coalesce(json_agg(json_build_object(
               'project_id', c.project_id, 'status', c.status, 'count', c.count, 'overdue', c.overdue)), '[]'::json)
        from counts c
    ),
    'my_tasks', (
      select coalesce(json_agg(row_to_json(n)), '[]'::json)
        from (
          select mine.* from mine
           order by mine.due_date nulls last, mine.priority desc, mine.number
           limit least(greatest(overview_page.my_task_limit, 1), 200)
        ) n
    ),
    'my_task_count', (select count(*) from mine),
    'activity', (
      select coalesce(json_agg(row_to_json(r) order by r.created_at desc, r.id desc), '[]'::json)
        from recent r
    ),
    'people', (select coalesce(json_agg(row_to_json(p)), '[]'::json) from people p)
  )
  );
end
$$;

revoke execute on function public.overview_page(text, date, integer, integer) from public, anon;
grant execute on function public.overview_page(text, date, integer, integer) to authenticated;
