-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.task_history_of_parents().

CREATE OR REPLACE FUNCTION private.task_history_of_parents()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  was jsonb := case when tg_op = 'UPDATE' then private.task_history_ref(old.parent_id) end;
  now_is jsonb := private.task_history_ref(new.parent_id);
begin
  if was is not null or now_is is not null then
    perform private.record_task_history(new.workspace_id, new.id, 'parent',
      jsonb_build_object('from', was, 'to', now_is));
  end if;
  return new;
end
$function$;
