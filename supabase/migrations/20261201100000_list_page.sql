-- The list view's one backend call (`/w/:workspace/p/:project/list`): the session check, the caller's
-- membership of the workspace, and one window of the project's tasks, filtered as the board filters
-- them, sorted by any column, in one request.
--
-- Security invoker, unlike board_page: every row it reads is read under the caller's policies, so
-- row-level security alone decides what the list shows (a workspace the caller is not a member of, or
-- one whose MFA rule the session does not meet, has no rows for them, and the answer is empty).
--
-- Sorting: `sort` is one of key, title, status, priority, assignee, due, updated, labels, and `dir` asc
-- or desc; anything else is the default (key, asc). Ties break by the task's number in the same
-- direction, so the order is stable; a missing value (no due date, nobody assigned, no priority, no
-- label) sorts last in both directions. Only whitelisted ORDER BY clauses are ever formatted into the
-- query: the caller's text never is.
--
-- The answer (JSON):
--   session, membership       as board_page's (membership null unless a member, session active)
--   labels                    the workspace's labels by name: the label filter's choices
--   project                   { id, key, name, description, archived_at }, null when not found
--   statuses                  the project's statuses in board order: [{ id, name, category }]
--   people                    the workspace's members: [{ id, display_name, avatar_path }]
--   count                     how many tasks match the filters
--   total                     how many tasks the project has (in the trash or not, never counted)
--   tasks                     the first `shown` matching tasks in the asked order:
--                             [{ id, number, title, status_id, priority, assignee_id, due_date,
--                                updated_at, labels: [{ id, name, color }] }]

-- Read straight from an index for the sorts that a plain list starts with, however big the project:
-- the first rows of the order, without sorting the whole project. (By number, the unique key
-- tasks_project_number_key already serves.)
create index tasks_list_updated_idx on public.tasks (project_id, updated_at, number) where deleted_at is null;
create index tasks_list_due_idx on public.tasks (project_id, due_date, number) where deleted_at is null;

create function public.list_page(
  workspace_slug text,
  project_key text,
  filters jsonb default '{}',
  sort text default 'key',
  dir text default 'asc',
  shown integer default 150
) returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
<<page>>
declare
  session text := public.session_status();
  ws_id uuid;
  ws_name text;
  ws_slug text;
  ws_is_personal boolean;
  my_role public.workspace_role;
  project_id uuid;
  descending boolean := lower(coalesce(list_page.dir, '')) = 'desc';
  direction text;
  size integer := least(greatest(coalesce(list_page.shown, 150), 1), 10000);
  sort_join text := '';
  order_by text;
  rows json;
  matching integer;
  everything integer;
begin
  if page.session = 'active' then
    select w.id, w.name, w.slug, w.is_personal, m.role
      into page.ws_id, page.ws_name, page.ws_slug, page.ws_is_personal, page.my_role
      from public.workspaces w
      join public.workspace_members m on m.workspace_id = w.id and m.user_id = (select auth.uid())
     where w.slug = list_page.workspace_slug;
    if page.ws_id is not null then
      select p.id into page.project_id
        from public.projects p
       where p.workspace_id = page.ws_id and p.key = upper(list_page.project_key);
    end if;
  end if;

  if page.project_id is not null then
    page.direction := case when page.descending then 'desc' else 'asc' end;
    case lower(coalesce(list_page.sort, ''))
      when 'title' then
        page.order_by := format('lower(t.title) %1$s, t.number %1$s', page.direction);
      when 'status' then
        page.sort_join := 'join public.project_statuses s on s.id = t.status_id';
        page.order_by := format('s.position %1$s, s.id %1$s, t.number %1$s', page.direction);
      when 'priority' then
        page.order_by := format($o$t.priority = 'none', t.priority %1$s, t.number %1$s$o$, page.direction);
      when 'assignee' then
        page.sort_join := 'left join public.profiles a on a.id = t.assignee_id';
        page.order_by := format('a.display_name is null, lower(a.display_name) %1$s, a.id %1$s, t.number %1$s',
                                page.direction);
      when 'due' then
        page.order_by := format('t.due_date %1$s nulls last, t.number %1$s', page.direction);
      when 'updated' then
        page.order_by := format('t.updated_at %1$s, t.number %1$s', page.direction);
      when 'labels' then
        -- By the first of a task's labels by name.
        page.sort_join := 'left join lateral (
            select min(lower(l.name)) as name
              from public.task_labels tl
              join public.labels l on l.id = tl.label_id
             where tl.task_id = t.id) lab on true';
        page.order_by := format('lab.name is null, lab.name %1$s, t.number %1$s', page.direction);
      else
        page.order_by := format('t.number %1$s', page.direction);
    end case;

    -- The filters mean what the board's mean (private.board_content): the same parameters, the same
    -- rows. $1 is the project, $2 the filters, $3 the window's size.
    execute format($q$
      with f as (
        select nullif($2 ->> 'assignee', '') as assignee,
               nullif($2 ->> 'priority', '') as priority,
               nullif($2 ->> 'due', '') as due,
               nullif(btrim($2 ->> 'q'), '') as q,
               coalesce(($2 ->> 'today')::date, current_date) as today,
               nullif(array(
                 select lower(btrim(n.name))
                   from jsonb_array_elements_text(
                          case when jsonb_typeof($2 -> 'label') = 'array' then $2 -> 'label' else '[]'::jsonb end)
                          as n (name)
                  where btrim(n.name) <> ''), '{}') as label_names
      ),
      wanted_labels as materialized (
        select l.id
          from public.labels l, f
         where l.workspace_id = (select p.workspace_id from public.projects p where p.id = $1)
           and lower(l.name) = any (f.label_names)
      ),
      open_statuses as materialized (
        select s.id from public.project_statuses s
         where s.project_id = $1 and s.category not in ('completed', 'canceled')
      ),
      -- Not materialized: inlined where it is read, so the window below is read from an index in the
      -- asked order until it is full, and the count from an index alone.
      matching as not materialized (
        select t.id, t.number, t.title, t.status_id, t.priority, t.assignee_id, t.due_date, t.updated_at
          from public.tasks t, f
         where t.project_id = $1
           and t.deleted_at is null
           and (f.assignee is null
                or (f.assignee = 'none' and t.assignee_id is null)
                or (f.assignee = 'me' and t.assignee_id = (select auth.uid()))
                or t.assignee_id::text = f.assignee)
           and (f.priority is null or t.priority::text = f.priority)
           and (f.due is null
                or (f.due = 'overdue' and t.due_date < f.today
                    and t.status_id in (select o.id from open_statuses o))
                or (f.due = 'week' and t.due_date between f.today and f.today + 6))
           and (f.q is null
                or t.title ilike '%%' || replace(replace(replace(f.q, '\', '\\'), '%%', '\%%'), '_', '\_') || '%%'
                or t.number::text = ltrim(f.q, '#'))
           and (f.label_names is null
                or exists (select 1 from public.task_labels tl
                            where tl.task_id = t.id
                              and tl.label_id = any (array(select wl.id from wanted_labels wl))))
      ),
      shown as materialized (
        select t.*, row_number() over (order by %2$s) as n
          from matching t %1$s
         order by %2$s
         limit $3
      ),
      shown_labels as materialized (
        select tl.task_id,
               json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color)
                        order by lower(l.name), l.id) as labels
          from public.task_labels tl
          join public.labels l on l.id = tl.label_id
         where tl.task_id = any (array(select s.id from shown s))
         group by tl.task_id
      )
      select (select count(*)::int from matching),
             (select count(*)::int from public.tasks t where t.project_id = $1 and t.deleted_at is null),
             (select coalesce(json_agg(json_build_object(
                       'id', s.id, 'number', s.number, 'title', s.title, 'status_id', s.status_id,
                       'priority', s.priority, 'assignee_id', s.assignee_id, 'due_date', s.due_date,
                       'updated_at', s.updated_at, 'labels', coalesce(sl.labels, '[]'::json))
                       order by s.n), '[]'::json)
                from shown s
                left join shown_labels sl on sl.task_id = s.id)
    $q$, page.sort_join, page.order_by)
    into page.matching, page.everything, page.rows
    using page.project_id, coalesce(list_page.filters, '{}'::jsonb), page.size;
  end if;

  return json_build_object(
    'session', page.session,
    'membership', case when page.ws_id is not null then json_build_object(
      'workspace', json_build_object('id', page.ws_id, 'name', page.ws_name,
                                     'slug', page.ws_slug, 'is_personal', page.ws_is_personal),
      'role', page.my_role,
      'display_name', (select pr.display_name from public.profiles pr where pr.id = (select auth.uid())),
      'unread', public.my_unread_notifications(),
      'projects', (
        select coalesce(json_agg(json_build_object('id', p.id, 'key', p.key, 'name', p.name,
                                                   'archived_at', p.archived_at)), '[]'::json)
          from public.projects p
         where p.workspace_id = page.ws_id
      )
    ) end,
    'labels', (
      select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color)
                               order by lower(l.name), l.id), '[]'::json)
        from public.labels l
       where l.workspace_id = page.ws_id
    ),
    'project', (
      select json_build_object('id', p.id, 'key', p.key, 'name', p.name, 'description', p.description,
                               'archived_at', p.archived_at)
        from public.projects p
       where p.id = page.project_id
    ),
    'statuses', case when page.project_id is not null then (
      select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name, 'category', s.category)
                               order by s.position, s.id), '[]'::json)
        from public.project_statuses s
       where s.project_id = page.project_id
    ) end,
    'people', case when page.project_id is not null then (
      select coalesce(json_agg(json_build_object('id', pr.id, 'display_name', pr.display_name,
                                                 'avatar_path', pr.avatar_path)
                               order by pr.display_name, pr.id), '[]'::json)
        from public.workspace_members m
        join public.profiles pr on pr.id = m.user_id
       where m.workspace_id = page.ws_id
    ) end,
    'count', page.matching,
    'total', page.everything,
    'tasks', page.rows
  );
end
$$;

revoke execute on function public.list_page(text, text, jsonb, text, text, integer) from public, anon;
grant execute on function public.list_page(text, text, jsonb, text, text, integer) to authenticated, service_role;
