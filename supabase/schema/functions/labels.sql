-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: labels: their names, the limit per workspace, setting a task's labels at once.

CREATE OR REPLACE FUNCTION public.labels_limit_per_workspace()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform pg_advisory_xact_lock(hashtextextended('labels:' || new.workspace_id::text, 0));
  if (select count(*) from public.labels where workspace_id = new.workspace_id) >= 200 then
    raise exception 'A workspace can have at most 200 labels.'
      using errcode = 'check_violation',
            -- Named as Postgres names a failing constraint, so the app maps it as it maps the others.
            detail = 'Failing row violates constraint "labels_per_workspace".';
  end if;
  return new;
end
$function$;
grant execute on function public.labels_limit_per_workspace() to service_role;

CREATE OR REPLACE FUNCTION public.labels_trim_name()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  new.name := btrim(new.name);
  return new;
end
$function$;
grant execute on function public.labels_trim_name() to service_role;

CREATE OR REPLACE FUNCTION public.set_task_labels(task_id uuid, label_ids uuid[])
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  wanted uuid[] := coalesce(set_task_labels.label_ids, '{}');
  ws uuid;
  removing int;
  removed int;
begin
  select t.workspace_id into ws from public.tasks t where t.id = set_task_labels.task_id;
  if ws is null then
    raise exception 'No such task.' using errcode = 'no_data_found';
  end if;
  select count(*) into removing from public.task_labels tl
   where tl.task_id = set_task_labels.task_id and tl.label_id <> all (wanted);
  delete from public.task_labels tl
   where tl.task_id = set_task_labels.task_id and tl.label_id <> all (wanted);
  get diagnostics removed = row_count;
  if removed < removing then
    raise exception 'The labels of this task cannot be changed.' using errcode = 'insufficient_privilege';
  end if;
  insert into public.task_labels (task_id, label_id, workspace_id)
  select distinct set_task_labels.task_id, l.id, ws from unnest(wanted) as l (id)
  on conflict do nothing;
end
$function$;
grant execute on function public.set_task_labels(uuid,uuid[]) to authenticated, service_role;
