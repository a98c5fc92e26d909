-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.search_task_passes(uuid,uuid,uuid,uuid[],text,uuid[],uuid[]).

CREATE OR REPLACE FUNCTION public.search_task_passes(task_id uuid, status_id uuid, assignee_id uuid, status_ids uuid[], assignee text, people uuid[], label_ids uuid[])
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select (status_ids is null or status_id = any (status_ids))
     and (assignee is null or (assignee = 'none' and assignee_id is null) or assignee_id = any (people))
     and (label_ids is null
          or exists (select 1 from public.task_labels tl
                      where tl.task_id = search_task_passes.task_id and tl.label_id = any (label_ids)))
$function$;
grant execute on function public.search_task_passes(uuid,uuid,uuid,uuid[],text,uuid[],uuid[]) to authenticated, service_role;
