-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: tasks: numbering, search, the updated_at stamp, a sub-task's parent.

CREATE OR REPLACE FUNCTION public.number_new_task()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  counter text := coalesce(current_setting('crewboard.import_next_number', true), '');
begin
  if coalesce(current_setting('crewboard.import_source', true), '') <> '' then
    if split_part(counter, ':', 1) = new.project_id::text then
      new.number := split_part(counter, ':', 2)::integer;
    else
      select p.next_task_number into new.number
        from public.projects p
       where p.id = new.project_id
         for update;
    end if;
    if new.number is not null then
      perform set_config('crewboard.import_next_number', new.project_id::text || ':' || (new.number + 1), true);
    end if;
  else
    update public.projects set next_task_number = next_task_number + 1
     where id = new.project_id
     returning next_task_number - 1 into new.number;
  end if;
  if new.number is null then
    raise exception 'Project not found.' using errcode = 'foreign_key_violation';
  end if;
  if new.status_id is null then
    select s.id into new.status_id
      from public.project_statuses s
     where s.project_id = new.project_id
     order by s.category <> 'unstarted', s.position, s.id
     limit 1;
  end if;
  select coalesce(max(t.position), 0) + 1024 into new.position
    from public.tasks t where t.status_id = new.status_id;
  return new;
end
$function$;
grant execute on function public.number_new_task() to service_role;

CREATE OR REPLACE FUNCTION public.search_tasks(workspace_slug text, words text[] DEFAULT '{}'::text[], key_project text DEFAULT NULL::text, key_number integer DEFAULT NULL::integer, assignee text DEFAULT NULL::text, status text DEFAULT NULL::text, state text DEFAULT NULL::text, label text DEFAULT NULL::text, project text DEFAULT NULL::text, max_results integer DEFAULT 20)
 RETURNS TABLE(id uuid, project_key text, project_name text, number integer, title text, status_name text, status_category text, matched text, title_marked text, snippet text)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  ws uuid;
  anywhere tsquery := public.search_tsquery(search_tasks.words);
  size integer := least(greatest(coalesce(search_tasks.max_results, 20), 1), 50);
  marks text := 'StartSel=' || chr(1) || ', StopSel=' || chr(2);
  -- Whether `project:`, `status:` or `is:` leave out some statuses: only then is a task's status
  -- checked, so that without them nothing steers the plan away from the words' indexes.
  narrowed boolean := search_tasks.project is not null or search_tasks.status is not null
                      or search_tasks.state is not null;
begin
  select w.id into ws from public.workspaces w where w.slug = search_tasks.workspace_slug;
  if ws is null then
    return;
  end if;
  return query (
  with
  -- The projects searched: all of the workspace's, or the one `project:` names.
  chosen_projects as materialized (
    select p.id, p.key, p.name
      from public.projects p
     where p.workspace_id = ws
       and (search_tasks.project is null or p.key = upper(btrim(search_tasks.project)))
  ),
  -- Their statuses `status:` and `is:` leave (all of them without either).
  chosen_statuses as materialized (
    select s.id, s.name, s.category
      from public.project_statuses s
     where s.workspace_id = ws
       and s.project_id in (select cp.id from chosen_projects cp)
       and (search_tasks.status is null or lower(s.name) = lower(btrim(search_tasks.status)))
       and (search_tasks.state is null
            or (search_tasks.state = 'open' and s.category not in ('completed', 'canceled'))
            or (search_tasks.state = 'done' and s.category = 'completed'))
  ),
  -- `assignee:`: me, nobody, or the members whose name begins so (letters and digits compared).
  people as materialized (
    select (select auth.uid()) as id where search_tasks.assignee = 'me'
    union all
    select wm.user_id
      from public.workspace_members wm
      join public.profiles pr on pr.id = wm.user_id
     where wm.workspace_id = ws
       and search_tasks.assignee not in ('me', 'none')
       and regexp_replace(lower(search_tasks.assignee), '[^[:alnum:]]', '', 'g') <> ''
       and starts_with(regexp_replace(lower(pr.display_name), '[^[:alnum:]]', '', 'g'),
                       regexp_replace(lower(search_tasks.assignee), '[^[:alnum:]]', '', 'g'))
  ),
  wanted_labels as materialized (
    select l.id
      from public.labels l
     where l.workspace_id = ws
       and lower(l.name) = lower(btrim(search_tasks.label))
  ),
  -- Every kind of match (search_task_hits reads the indexes), the filters resolved here, under RLS.
  hits as (
    select h.task_id as id, h.tier, h.rank, h.updated_at, h.comment_id
      from public.search_task_hits(
             ws, anywhere, search_tasks.key_project, search_tasks.key_number,
             case when narrowed then array(select cs.id from chosen_statuses cs) end,
             search_tasks.assignee,
             array(select pe.id from people pe),
             case when search_tasks.label is not null then array(select wl.id from wanted_labels wl) end,
             size) h
  ),
  -- Each task once, where it matched best.
  best as (
    select distinct on (h.id) h.*
      from hits h
     order by h.id, h.tier, h.rank desc
  ),
  top as materialized (
    select b.*
      from best b
     order by b.tier, b.rank desc, b.updated_at desc, b.id
     limit size
  )
  select t.id, cp.key, cp.name, t.number, t.title, cs.name, cs.category::text,
         (array['key', 'title', 'description', 'comment', 'filter'])[top.tier + 1],
         case when anywhere is null then t.title
              else ts_headline('simple'::regconfig, translate(t.title, chr(1) || chr(2), ''), anywhere,
                               'HighlightAll=true, ' || marks) end,
         case top.tier
           when 2 then ts_headline('simple'::regconfig, translate(t.description, chr(1) || chr(2), ''),
                                   anywhere, 'MaxWords=24, MinWords=8, MaxFragments=1, ' || marks)
           when 3 then (select ts_headline('simple'::regconfig, translate(c.body, chr(1) || chr(2), ''),
                                           anywhere, 'MaxWords=24, MinWords=8, MaxFragments=1, ' || marks)
                          from public.comments c
                         where c.id = top.comment_id)
         end
    from top
    join public.tasks t on t.id = top.id
    join chosen_projects cp on cp.id = t.project_id
    join chosen_statuses cs on cs.id = t.status_id
   order by top.tier, top.rank desc, top.updated_at desc, top.id
  );
end
$function$;
grant execute on function public.search_tasks(text,text[],text,integer,text,text,text,text,text,integer) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.tasks_check_parent()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  parent record;
begin
  if new.parent_id = new.id then
    raise exception 'A task cannot be its own parent.'
      using errcode = 'check_violation',
            detail = 'Failing row violates constraint "tasks_parent_not_self".';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('task-parents:' || new.project_id::text, 0));
  select t.project_id, t.parent_id into parent from public.tasks t where t.id = new.parent_id;
  if not found or parent.project_id <> new.project_id then
    raise exception 'The parent must be a task of the same project.'
      using errcode = 'foreign_key_violation',
            detail = 'Failing row violates constraint "tasks_parent_fkey".';
  end if;
  if parent.parent_id is not null then
    raise exception 'That task is a sub-task: a sub-task cannot have sub-tasks of its own.'
      using errcode = 'check_violation',
            detail = 'Failing row violates constraint "tasks_parent_one_level".';
  end if;
  if tg_op = 'UPDATE' and exists (select 1 from public.tasks t where t.parent_id = new.id) then
    raise exception 'This task has sub-tasks: a task with sub-tasks cannot become a sub-task.'
      using errcode = 'check_violation',
            detail = 'Failing row violates constraint "tasks_parent_has_subtasks".';
  end if;
  return new;
end
$function$;
grant execute on function public.tasks_check_parent() to service_role;

CREATE OR REPLACE FUNCTION public.touch_updated_at()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  new.updated_at := greatest(clock_timestamp(), old.updated_at + interval '1 microsecond');
  return new;
end
$function$;
grant execute on function public.touch_updated_at() to service_role;
