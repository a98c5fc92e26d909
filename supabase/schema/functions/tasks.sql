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
begin
  update public.projects set next_task_number = next_task_number + 1
   where id = new.project_id
   returning next_task_number - 1 into new.number;
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

CREATE OR REPLACE FUNCTION public.search_tasks(workspace_id uuid, query text)
 RETURNS SETOF public.tasks
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select t.*
    from public.tasks t
   where t.workspace_id = search_tasks.workspace_id
     and t.search @@ websearch_to_tsquery('english', query)
   order by ts_rank(t.search, websearch_to_tsquery('english', query)) desc, t.updated_at desc
   limit 50
$function$;
grant execute on function public.search_tasks(uuid,text) to authenticated, service_role;

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
  new.updated_at := now();
  return new;
end
$function$;
grant execute on function public.touch_updated_at() to service_role;
