-- Saved views under their project in the sidebar on the list's pages too: list_page's membership
-- now lists them, as board_page's and overview_page's do (20261201200100_saved_views_in_sidebar.sql).
-- The function is as 20261201100200_list_page_quicker.sql left it, with one line added: 'views'.

CREATE OR REPLACE FUNCTION public.list_page(workspace_slug text, project_key text, filters jsonb DEFAULT '{}'::jsonb, sort text DEFAULT 'key'::text, dir text DEFAULT 'asc'::text, shown integer DEFAULT 150)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
  -- Whether any filter is set (the date alone is not one): without one, every task matches.
  filtered boolean := nullif(list_page.filters ->> 'assignee', '') is not null
                      or nullif(list_page.filters ->> 'priority', '') is not null
                      or nullif(list_page.filters ->> 'due', '') is not null
                      or nullif(btrim(list_page.filters ->> 'q'), '') is not null
                      or coalesce(list_page.filters -> 'label', '[]'::jsonb) <> '[]'::jsonb;
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
        page.sort_join := 'left join names a on a.id = t.assignee_id';
        page.order_by := format('a.name is null, a.name %1$s, a.id %1$s, t.number %1$s', page.direction);
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
    -- rows. $1 is the project, $2 the filters, $3 the window's size, $4 whether a filter is set.
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
          from public.tasks t
         where t.project_id = $1
           and t.deleted_at is null
           -- Planned with $4's value: without a filter, none of this is there to evaluate.
           and (not $4 or exists (select 1 from f where (f.assignee is null
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
                              and tl.label_id = any (array(select wl.id from wanted_labels wl))))))
      ),
      -- The workspace's people by name, read once: the assignee sort's key.
      names as materialized (
        select pr.id, lower(pr.display_name) as name
          from public.profiles pr
          join public.workspace_members m on m.user_id = pr.id
         where m.workspace_id = (select p.workspace_id from public.projects p where p.id = $1)
      ),
      -- The window first (a bounded sort, or the first rows of an index), then its rows numbered.
      shown as materialized (
        select w.*, row_number() over () as n
          from (select t.* from matching t %1$s order by %2$s limit $3) w
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
      -- Unfiltered, the project's count is the matching one: counted once.
      select case when $4 then (select count(*)::int from matching) end,
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
    using page.project_id, coalesce(list_page.filters, '{}'::jsonb), page.size, page.filtered;
    page.matching := coalesce(page.matching, page.everything);
  end if;

  return json_build_object(
    'session', page.session,
    'membership', case when page.ws_id is not null then json_build_object(
      'workspace', json_build_object('id', page.ws_id, 'name', page.ws_name,
                                     'slug', page.ws_slug, 'is_personal', page.ws_is_personal),
      'role', page.my_role,
      'display_name', (select pr.display_name from public.profiles pr where pr.id = (select auth.uid())),
      'unread', public.my_unread_notifications(),
      'views', public.saved_views_of(page.ws_id),
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
$function$;
