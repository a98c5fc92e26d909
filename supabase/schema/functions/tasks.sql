-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: tasks: numbering, search, the updated_at stamp.

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
