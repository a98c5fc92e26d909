-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.record_imported_labels().

CREATE OR REPLACE FUNCTION private.record_imported_labels()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if coalesce(current_setting('crewboard.import_source', true), '') <> '' then
    insert into public.task_history (workspace_id, task_id, actor_id, kind, data)
    select n.workspace_id, n.task_id, (select u.id from auth.users u where u.id = (select auth.uid())),
           'label_added', jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color)
      from new_rows n
      join public.labels l on l.id = n.label_id
      join public.tasks t on t.id = n.task_id;
  end if;
  return null;
end
$function$;
