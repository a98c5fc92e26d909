-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.task_history_of_task_labels().

CREATE OR REPLACE FUNCTION private.task_history_of_task_labels()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  changed public.task_labels := coalesce(new, old);
  label jsonb;
begin
  select jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color) into label
    from public.labels l where l.id = changed.label_id;
  if label is not null and exists (select 1 from public.tasks t where t.id = changed.task_id) then
    perform private.record_task_history(changed.workspace_id, changed.task_id,
      case when tg_op = 'INSERT' then 'label_added' else 'label_removed' end, label);
  end if;
  return changed;
end
$function$;
