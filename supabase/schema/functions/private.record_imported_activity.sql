-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.record_imported_activity().

CREATE OR REPLACE FUNCTION private.record_imported_activity()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if coalesce(current_setting('crewboard.import_source', true), '') <> '' then
    -- The numbers the import's tasks took, spent (number_new_task counted them in a setting).
    update public.projects p
       set next_task_number = greatest(p.next_task_number, m.last + 1)
      from (select n.project_id, max(n.number) as last from new_rows n group by n.project_id) m
     where p.id = m.project_id;
    perform set_config('crewboard.import_next_number', '', true);
    insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
    select n.workspace_id, n.project_id, n.id, (select auth.uid()), 'task_created',
           jsonb_build_object('number', n.number, 'title', n.title)
      from new_rows n
     order by n.number;
    insert into public.task_history (workspace_id, task_id, actor_id, kind, data)
    select n.workspace_id, n.id, (select u.id from auth.users u where u.id = (select auth.uid())),
           'imported', jsonb_build_object('source', current_setting('crewboard.import_source', true))
      from new_rows n
     order by n.number;
  end if;
  return null;
end
$function$;
