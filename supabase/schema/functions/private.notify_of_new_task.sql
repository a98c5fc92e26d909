-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notify_of_new_task().

CREATE OR REPLACE FUNCTION private.notify_of_new_task()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  mentioned uuid[];
  about jsonb;
begin
  if new.deleted_at is not null then
    return null;
  end if;
  mentioned := private.mentioned_members(new.workspace_id, new.description);
  perform private.watch(new.workspace_id, new.id, array[new.created_by, new.assignee_id] || mentioned);
  if new.assignee_id is null and cardinality(mentioned) = 0 then
    return null;
  end if;
  about := jsonb_build_object('task', private.notification_task(new));
  perform private.notify((select auth.uid()), new.workspace_id, new.id, null,
    array[new.assignee_id] || mentioned,
    array['assigned'] || array_fill('mentioned'::text, array[cardinality(mentioned)]),
    array[about] || array_fill(
      about || jsonb_build_object('excerpt', private.notification_excerpt(new.description)),
      array[cardinality(mentioned)]));
  return null;
end
$function$;
