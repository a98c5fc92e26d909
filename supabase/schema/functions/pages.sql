-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: the one-call pages besides the board: the overview and the account.

CREATE OR REPLACE FUNCTION public.account_page()
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return (
  with session as (
    select public.session_status() as status
  )
  select json_build_object(
    'session', (select status from session),
    'profile', (
      select json_build_object('display_name', p.display_name, 'avatar_path', p.avatar_path)
        from public.profiles p
       where p.id = (select auth.uid())
         and (select status from session) = 'active'
    )
  )
  );
end
$function$;
grant execute on function public.account_page() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.overview_page(workspace_slug text, today date, my_task_limit integer DEFAULT 8, activity_limit integer DEFAULT 30)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
  -- The workspace's statuses (a few per project), each with whether its tasks are open.
  statuses as materialized (
    select s.id, s.project_id, s.name, s.category,
           s.category in ('backlog', 'unstarted', 'started') as open
      from public.project_statuses s
     where s.workspace_id = page.workspace_id
       and exists (select 1 from membership)
  ),
  -- Every project's tasks by status, with the overdue ones among them: one pass over the
  -- workspace's entries in tasks_overview_idx.
  by_status as materialized (
    select t.project_id, t.status_id, count(*) as count,
           count(*) filter (where t.due_date < overview_page.today) as due_before_today
      from public.tasks t
     where t.workspace_id = page.workspace_id
       and exists (select 1 from membership)
     group by t.project_id, t.status_id
  ),
  counts as (
    select b.project_id, s.category, sum(b.count)::int as count,
           sum(case when s.open then b.due_before_today else 0 end)::int as overdue
      from by_status b
      join statuses s on s.id = b.status_id
     group by b.project_id, s.category
  ),
  mine as materialized (
    select t.id, t.project_id, t.number, t.title, s.name as status, s.category, t.priority, t.due_date
      from public.tasks t
      join statuses s on s.id = t.status_id and s.open
     where t.workspace_id = page.workspace_id
       and exists (select 1 from membership)
       and t.assignee_id = (select auth.uid())
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
        'unread', public.my_unread_notifications(),
        'views', public.saved_views_of(m.id),
        'projects', (
          select coalesce(json_agg(json_build_object('id', p.id, 'key', p.key, 'name', p.name, 'archived_at', p.archived_at)), '[]'::json)
            from public.projects p
           where p.workspace_id = m.id
        )
      )
        from membership m
    ),
    'counts', (
      select coalesce(json_agg(json_build_object(
               'project_id', c.project_id, 'category', c.category, 'count', c.count, 'overdue', c.overdue)), '[]'::json)
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
$function$;
grant execute on function public.overview_page(text,date,integer,integer) to authenticated, service_role;
