-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: the board page, the kept copy of each board (private.board_cache), moving cards, the board channel.

CREATE OR REPLACE FUNCTION public.board_page(workspace_slug text, project_key text, shown jsonb DEFAULT '{}'::jsonb, filters jsonb DEFAULT '{}'::jsonb)
 RETURNS json
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
-- Labelled with the function's name, so the project's id reads like the arguments: board_page.project_id.
<<board_page>>
declare
  ws_id uuid;
  ws_name text;
  ws_slug text;
  ws_is_personal boolean;
  project_id uuid;
  my_role public.workspace_role;
  status text := public.session_status();
  parts private.board_parts;
begin
  -- The workspace by its slug, and its project by its key, any case (addresses carry it in lower
  -- case), found only for a member of the workspace whose session meets the MFA rule: exactly the
  -- rows RLS shows them (decision 012). For anyone else nothing is found, and nothing below is read.
  select w.id, w.name, w.slug, w.is_personal, p.id, m.role
    into ws_id, ws_name, ws_slug, ws_is_personal, project_id, my_role
    from public.workspaces w
    join public.workspace_members m on m.workspace_id = w.id and m.user_id = auth.uid()
    left join public.projects p on p.workspace_id = w.id and p.key = upper(board_page.project_key)
   where w.slug = board_page.workspace_slug
     and public.mfa_satisfied();
  if status is distinct from 'active' then
    ws_id := null;
    project_id := null;
  end if;

  -- The board at its plain address: no filter set (the date alone is not one), and no column's
  -- window asked for (the app sends only windows longer than the first 50).
  if project_id is not null
     and nullif(board_page.filters ->> 'assignee', '') is null
     and nullif(board_page.filters ->> 'priority', '') is null
     and nullif(board_page.filters ->> 'due', '') is null
     and nullif(btrim(board_page.filters ->> 'q'), '') is null
     and coalesce(board_page.filters -> 'label', '[]'::jsonb) = '[]'::jsonb
     and coalesce(board_page.shown, '{}'::jsonb) = '{}'::jsonb then
    select c.project, c.people, c.columns
      into parts
      from private.board_cache c
     where c.project_id = board_page.project_id;
  end if;
  if parts.project is null then
    parts := private.board_content(board_page.ws_id, board_page.project_id, board_page.shown, board_page.filters);
  end if;

  return json_build_object(
    'session', status,
    'membership', case when board_page.ws_id is not null then json_build_object(
      'workspace', json_build_object('id', board_page.ws_id, 'name', board_page.ws_name,
                                     'slug', board_page.ws_slug, 'is_personal', board_page.ws_is_personal),
      'role', board_page.my_role,
      'display_name', (select pr.display_name from public.profiles pr where pr.id = (select auth.uid())),
      'unread', public.my_unread_notifications(),
      'views', public.saved_views_of(board_page.ws_id),
      'projects', (
        select coalesce(json_agg(json_build_object('id', p.id, 'key', p.key, 'name', p.name, 'archived_at', p.archived_at)), '[]'::json)
          from public.projects p
         where p.workspace_id = board_page.ws_id
      )
    ) end,
    -- The workspace's labels by name: the label filter's choices.
    'labels', (
      select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color)
                               order by lower(l.name), l.id), '[]'::json)
        from public.labels l
       where l.workspace_id = board_page.ws_id
    ),
    'project', parts.project,
    'people', parts.people,
    'columns', parts.columns
  );
end
$function$;
grant execute on function public.board_page(text,text,jsonb,jsonb) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.may_join_board_channel(topic text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select exists (
      select 1 from public.projects p
       where 'board:' || p.id::text = topic
         and p.workspace_id in (select public.my_workspace_ids())
    )
  );
end
$function$;
grant execute on function public.may_join_board_channel(text) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.move_task(task_id uuid, status_id uuid, before_task_id uuid DEFAULT NULL::uuid, after_task_id uuid DEFAULT NULL::uuid)
 RETURNS public.tasks
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  moving public.tasks;
  above numeric;
  below numeric;
  target numeric;
  moved public.tasks;
begin
  select * into moving from public.tasks t where t.id = move_task.task_id;
  if not found then
    -- PTxyz answers HTTP xyz through PostgREST: a task the caller cannot see does not exist for them.
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not exists (select 1 from public.project_statuses s
                  where s.id = move_task.status_id and s.project_id = moving.project_id) then
    raise exception 'That status is not on this board.' using errcode = 'PT404';
  end if;
  if after_task_id is not null then
    select t.position into above from public.tasks t
     where t.id = after_task_id and t.status_id = move_task.status_id;
    if not found then raise exception 'The task to follow is not in that column.' using errcode = 'check_violation'; end if;
  end if;
  if before_task_id is not null then
    select t.position into below from public.tasks t
     where t.id = before_task_id and t.status_id = move_task.status_id;
    if not found then raise exception 'The task to precede is not in that column.' using errcode = 'check_violation'; end if;
  end if;
  -- One neighbour named: the other is the card on its far side, if any.
  if above is not null and before_task_id is null then
    select min(t.position) into below from public.tasks t
     where t.status_id = move_task.status_id and t.position > above and t.id <> moving.id;
  elsif below is not null and after_task_id is null then
    select max(t.position) into above from public.tasks t
     where t.status_id = move_task.status_id and t.position < below and t.id <> moving.id;
  end if;
  target := case
    when above is not null and below is not null then (above + below) / 2
    when above is not null then above + 1024
    when below is not null then below - 1024
    else (select coalesce(max(t.position), 0) + 1024 from public.tasks t
           where t.status_id = move_task.status_id and t.id <> moving.id)
  end;
  update public.tasks t set status_id = move_task.status_id, position = target
   where t.id = moving.id
   returning * into moved;
  if not found then
    raise exception 'You cannot move this task.' using errcode = 'insufficient_privilege';
  end if;
  return moved;
end
$function$;
grant execute on function public.move_task(uuid,uuid,uuid,uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION private.board_cache_labels()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.refresh_board_cache(array(
    select distinct t.project_id
      from public.task_labels tl
      join public.tasks t on t.id = tl.task_id
     where tl.label_id = any (array(
             select n.id
               from old_rows o
               join new_rows n on n.id = o.id
              where (n.name, n.color) is distinct from (o.name, o.color)))));
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_people()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_table_name = 'workspace_members' and tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(
      select p.id from public.projects p
       where p.workspace_id = any (array(select r.workspace_id from new_rows r))));
  elsif tg_table_name = 'workspace_members' then
    perform private.refresh_board_cache(array(
      select p.id from public.projects p
       where p.workspace_id = any (array(select r.workspace_id from old_rows r))));
  else
    perform private.refresh_board_cache(array(
      select p.id
        from public.projects p
        join public.workspace_members m on m.workspace_id = p.workspace_id
       where m.user_id = any (array(
               select n.id
                 from old_rows o
                 join new_rows n on n.id = o.id
                where (n.display_name, n.avatar_path) is distinct from (o.display_name, o.avatar_path)))));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_projects()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(select n.id from new_rows n));
  else
    perform private.refresh_board_cache(array(
      select n.id
        from old_rows o
        join new_rows n on n.id = o.id
       where (n.key, n.name, n.description, n.archived_at) is distinct from
             (o.key, o.name, o.description, o.archived_at)));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_status_blockers()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.refresh_board_cache(array(
    select distinct b.project_id
      from old_rows o
      join new_rows n on n.id = o.id
      join public.tasks t on t.status_id = n.id
      join public.task_links l on l.from_task_id = t.id and l.workspace_id = t.workspace_id
      join public.tasks b on b.id = l.to_task_id
     where n.category is distinct from o.category
       and l.kind = 'blocks'
       and b.project_id <> n.project_id));
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_statuses()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(select distinct n.project_id from new_rows n));
  else
    perform private.refresh_board_cache(array(select distinct o.project_id from old_rows o));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_task_children()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- Each statement names only its own trigger's rows: the other transition table does not exist.
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t where t.id = any (array(select r.task_id from new_rows r))));
  else
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t where t.id = any (array(select r.task_id from old_rows r))));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_task_links()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- Each statement names only its own trigger's rows: the other transition table does not exist.
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t
       where t.id = any (array(select r.to_task_id from new_rows r where r.kind = 'blocks'))));
  else
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t
       where t.id = any (array(select r.to_task_id from old_rows r where r.kind = 'blocks'))));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_task_structure()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.refresh_board_cache(array(
    -- A parent changed: the sub-task's own project, which board_cache_tasks leaves alone for it.
    select n.project_id
      from old_rows o
      join new_rows n on n.id = o.id
     where n.parent_id is distinct from o.parent_id
       and (n.project_id, n.number, n.title, n.status_id, n.position, n.priority, n.due_date, n.assignee_id)
           is not distinct from
           (o.project_id, o.number, o.title, o.status_id, o.position, o.priority, o.due_date, o.assignee_id)
    union
    -- A blocker's status changed, or it went to the trash or came back: the other projects' boards
    -- where a task it blocks is drawn.
    select b.project_id
      from old_rows o
      join new_rows n on n.id = o.id
      join public.task_links l on l.from_task_id = n.id and l.workspace_id = n.workspace_id
      join public.tasks b on b.id = l.to_task_id
     where (n.status_id is distinct from o.status_id or n.deleted_at is distinct from o.deleted_at)
       and l.kind = 'blocks'
       and b.project_id <> n.project_id));
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_cache_tasks()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(select distinct n.project_id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.refresh_board_cache(array(select distinct o.project_id from old_rows o));
  else
    perform private.refresh_board_cache(array(
      select unnest(array[o.project_id, n.project_id])
        from old_rows o
        join new_rows n on n.id = o.id
       where (n.project_id, n.number, n.title, n.status_id, n.position, n.priority, n.due_date, n.assignee_id,
              n.deleted_at)
             is distinct from
             (o.project_id, o.number, o.title, o.status_id, o.position, o.priority, o.due_date, o.assignee_id,
              o.deleted_at)
          or (n.description is distinct from o.description
              and private.checklist_progress(n.description)
                  is distinct from private.checklist_progress(o.description))));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.board_content(ws_id uuid, project_id uuid, shown jsonb, filters jsonb)
 RETURNS private.board_parts
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  -- PL/pgSQL, not SQL: the query is prepared once per connection and takes the ids as parameters;
  -- its plan reads each window from the column-order index (query-plans.test.ts checks it).
  return (
  with
  -- The workspace's members and their profiles, each profile looked up once by its key.
  members as materialized (
    select wm.user_id
      from public.workspace_members wm
     where wm.workspace_id = board_content.ws_id
  ),
  member_profiles as materialized (
    select pr.id, pr.display_name, pr.avatar_path
      from public.profiles pr
     where pr.id = any (array(select m.user_id from members m))
  ),
  project as (
    select p.id, p.key, p.name, p.description, p.archived_at
      from public.projects p
     where p.id = board_content.project_id
       and p.workspace_id = board_content.ws_id
  ),
  -- The filter's values, read once; `filtered` when any is set.
  f as (
    select nullif(board_content.filters ->> 'assignee', '') as assignee,
           nullif(board_content.filters ->> 'priority', '') as priority,
           nullif(board_content.filters ->> 'due', '') as due,
           nullif(btrim(board_content.filters ->> 'q'), '') as q,
           coalesce((board_content.filters ->> 'today')::date, current_date) as today,
           -- The label names asked for, trimmed and in lower case; none when `label` is not an array.
           nullif(array(
             select lower(btrim(n.name))
               from jsonb_array_elements_text(
                      case when jsonb_typeof(board_content.filters -> 'label') = 'array'
                           then board_content.filters -> 'label' else '[]'::jsonb end) as n (name)
              where btrim(n.name) <> ''), '{}') as label_names
  ),
  -- The workspace's labels of those names (another workspace's never match).
  wanted_labels as materialized (
    select l.id
      from public.labels l, f
     where l.workspace_id = board_content.ws_id
       and lower(l.name) = any (f.label_names)
  ),
  filtered as (
    select (f.assignee is not null or f.priority is not null or f.due is not null or f.q is not null
            or f.label_names is not null) as active
      from f
  ),
  -- Every column's count in one pass over the project's tasks.
  counts as materialized (
    select t.status_id, count(*) as count
      from public.tasks t
     where t.workspace_id = board_content.ws_id
       and t.project_id = board_content.project_id
       and t.deleted_at is null
       and exists (select 1 from project)
     group by t.status_id
  ),
  -- The project's statuses in order: its columns.
  columns as materialized (
    select s.id, s.name, s.category,
           row_number() over (order by s.position, s.id) as n,
           -- A window's size: a whole number from the caller, else 50; never under 1 or over 10,000.
           least(greatest(
             case when board_content.shown ->> s.id::text ~ '^[0-9]{1,5}$'
                  then (board_content.shown ->> s.id::text)::int else 50 end, 1), 10000) as size
      from public.project_statuses s
     where s.project_id = board_content.project_id
       and exists (select 1 from project)
  ),
  -- With a filter: the project's matching cards, in one pass (a window read from the column-order
  -- index could read the whole column before it found 50 that match, or none).
  matching as materialized (
    select t.id, t.number, t.title, t.status_id, t.position, t.priority, t.due_date, t.assignee_id,
           t.updated_at,
           private.checklist_progress(t.description) as checklist
      from public.tasks t, f
     where t.workspace_id = board_content.ws_id
       and t.project_id = board_content.project_id
       and t.deleted_at is null
       and (select filtered.active from filtered)
       and exists (select 1 from project)
       and (f.assignee is null
            or (f.assignee = 'none' and t.assignee_id is null)
            or (f.assignee = 'me' and t.assignee_id = (select auth.uid()))
            or t.assignee_id::text = f.assignee)
       and (f.priority is null or t.priority::text = f.priority)
       -- A completed or canceled task is never overdue.
       and (f.due is null
            or (f.due = 'overdue' and t.due_date < f.today
                and t.status_id in (select c.id from columns c
                                     where c.category not in ('completed', 'canceled')))
            or (f.due = 'week' and t.due_date between f.today and f.today + 6))
       and (f.q is null
            or t.title ilike '%' || replace(replace(replace(f.q, '\', '\\'), '%', '\%'), '_', '\_') || '%'
            or t.number::text = ltrim(f.q, '#'))
       -- Any of the labels asked for.
       and (f.label_names is null
            or exists (select 1 from public.task_labels tl
                        where tl.task_id = t.id
                          and tl.label_id = any (array(select wl.id from wanted_labels wl))))
  ),
  -- Each column's window: its first cards in board order. Unfiltered, read from the index until it is
  -- full; filtered, the first of the matching cards.
  windows as materialized (
    select c.n, t.*
      from columns c
      cross join lateral (
        select t.id, t.number, t.title, t.status_id, t.position, t.priority, t.due_date, t.assignee_id,
               t.updated_at,
               private.checklist_progress(t.description) as checklist
          from public.tasks t
         where t.status_id = c.id
           and t.deleted_at is null
         order by t.position, t.id
         limit c.size
      ) t
     where not (select filtered.active from filtered)
    union all
    select c.n, m.id, m.number, m.title, m.status_id, m.position, m.priority, m.due_date, m.assignee_id,
           m.updated_at,
           m.checklist
      from (select m.*, row_number() over (partition by m.status_id order by m.position, m.id) as r
              from matching m) m
      join columns c on c.id = m.status_id
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
  ),
  -- The drawn cards' sub-tasks by status category, each card's looked up by its key (a sub-task is
  -- of its parent's project, so its status is one of the columns).
  subtask_counts as materialized (
    select t.parent_id as task_id,
           count(*) filter (where c.category = 'completed') as done,
           count(*) filter (where c.category <> 'canceled') as total
      from public.tasks t
      join columns c on c.id = t.status_id
     where t.parent_id = any (array(select w.id from windows w))
       and t.project_id = board_content.project_id
       and t.deleted_at is null
     group by t.parent_id
  ),
  -- The drawn cards blocked by an open task, each card's links looked up by its key.
  blocked_cards as materialized (
    select distinct l.to_task_id as task_id
      from public.task_links l
      join public.tasks b on b.id = l.from_task_id
      join public.project_statuses s on s.id = b.status_id
     where l.to_task_id = any (array(select w.id from windows w))
       and l.workspace_id = board_content.ws_id
       and l.kind = 'blocks'
       and s.category not in ('completed', 'canceled')
       and b.deleted_at is null
  ),
  -- The drawn cards' labels, by name, each card's looked up by its key.
  card_labels as materialized (
    select tl.task_id,
           json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color)
                    order by lower(l.name), l.id) as labels
      from public.task_labels tl
      join public.labels l on l.id = tl.label_id and l.workspace_id = tl.workspace_id
     where tl.task_id = any (array(select w.id from windows w))
       and tl.workspace_id = board_content.ws_id
     group by tl.task_id
  )
  select row(
    (select row_to_json(project) from project),
    (
      select coalesce(json_agg(json_build_object('id', pr.id, 'display_name', pr.display_name,
                                                 'avatar_path', pr.avatar_path)
                               order by pr.display_name, pr.id), '[]'::json)
        from member_profiles pr
       where exists (select 1 from project)
    ),
    (
      select json_agg(json_build_object(
               'id', c.id,
               'name', c.name,
               'category', c.category,
               'count', case when (select filtered.active from filtered)
                             then (select count(*) from matching m where m.status_id = c.id)
                             else coalesce((select n.count from counts n where n.status_id = c.id), 0) end,
               'total', coalesce((select n.count from counts n where n.status_id = c.id), 0),
               'tasks', (
                 select coalesce(json_agg(json_build_object(
                          'id', w.id, 'number', w.number, 'title', w.title, 'status_id', w.status_id,
                          'position', w.position, 'priority', w.priority, 'due_date', w.due_date,
                          'assignee_id', w.assignee_id, 'updated_at', w.updated_at,
                          'comments', coalesce(cc.count, 0), 'attachments', coalesce(ac.count, 0),
                          'labels', coalesce(cl.labels, '[]'::json), 'checklist', w.checklist,
                          'subtasks', json_build_object('done', coalesce(sc.done, 0),
                                                        'total', coalesce(sc.total, 0)),
                          'blocked', bc.task_id is not null)
                          order by w.position, w.id), '[]'::json)
                   from windows w
                   left join comment_counts cc on cc.task_id = w.id
                   left join attachment_counts ac on ac.task_id = w.id
                   left join card_labels cl on cl.task_id = w.id
                   left join subtask_counts sc on sc.task_id = w.id
                   left join blocked_cards bc on bc.task_id = w.id
                  where w.n = c.n
               )
             ) order by c.n)
        from columns c
    )
  )::private.board_parts
  );
end
$function$;

CREATE OR REPLACE FUNCTION private.refresh_board_cache(project_ids uuid[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  board record;
begin
  for board in
    select p.id, p.workspace_id from public.projects p where p.id = any (project_ids) order by p.id
  loop
    insert into private.board_cache (project_id) values (board.id) on conflict (project_id) do nothing;
    -- Waits for any other transaction rebuilding this board to end; the statement below then takes
    -- a snapshot that sees what it committed.
    perform from private.board_cache c where c.project_id = board.id for update;
    update private.board_cache c
       set (project, people, columns) = (
             select b.project, b.people, b.columns
               from private.board_content(board.workspace_id, board.id, '{}', '{}') b)
     where c.project_id = board.id;
  end loop;
end
$function$;
