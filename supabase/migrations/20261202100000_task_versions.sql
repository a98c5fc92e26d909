-- A task's updated_at is its version, and the board's cards carry it: a Realtime message about a
-- card that is older than the card the browser loaded is one the board has already moved past (the
-- echo of this page's own earlier move, delivered late), and live-apply.ts leaves it unapplied.
--
-- For that the stamp must grow with every write of the row, in the order the writes happen. now()
-- is when the transaction began: a transaction that began first but wrote the row second (it waited
-- for the first's lock, or did other work before) would stamp the later write as the older one. The
-- clock when the row is written, and never less than a microsecond after the stamp it replaces, grows
-- with the row's writes: a second writer of a row writes only after the first has committed.
--
-- The stamp serves profiles, workspaces and projects the same way.
create or replace function public.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := greatest(clock_timestamp(), old.updated_at + interval '1 microsecond');
  return new;
end
$$;

-- Otherwise board_content as 20261201600000_board_counts_by_workspace.sql left it; the cards carry
-- updated_at.
create or replace function private.board_content(
  ws_id uuid,
  project_id uuid,
  shown jsonb,
  filters jsonb
) returns private.board_parts
language plpgsql
stable
security invoker
set search_path = ''
as $$
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
$$;

-- Every kept board again, its cards with their updated_at.
select private.refresh_board_cache(array(select p.id from public.projects p));
