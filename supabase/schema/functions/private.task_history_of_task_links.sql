-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.task_history_of_task_links().

CREATE OR REPLACE FUNCTION private.task_history_of_task_links()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  changed public.task_links := coalesce(new, old);
  kind text := case when tg_op = 'INSERT' then 'link_added' else 'link_removed' end;
  from_task jsonb := private.task_history_ref(changed.from_task_id);
  to_task jsonb := private.task_history_ref(changed.to_task_id);
begin
  if from_task is not null and to_task is not null then
    perform private.record_task_history(changed.workspace_id, changed.from_task_id, kind,
      jsonb_build_object(
        'type', case changed.kind when 'duplicates' then 'duplicate_of' else changed.kind end,
        'other', to_task));
    perform private.record_task_history(changed.workspace_id, changed.to_task_id, kind,
      jsonb_build_object(
        'type', case changed.kind when 'blocks' then 'blocked_by'
                                  when 'duplicates' then 'duplicated_by'
                                  else changed.kind end,
        'other', from_task));
  end if;
  return changed;
end
$function$;
