-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notify_of_comment_edit().

CREATE OR REPLACE FUNCTION private.notify_of_comment_edit()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  task public.tasks;
  mentioned uuid[];
  about jsonb;
begin
  select * into task from public.tasks t where t.id = new.task_id;
  if not found or task.deleted_at is not null then
    return null;
  end if;
  mentioned := array(
    select unnest(private.mentioned_members(new.workspace_id, new.body))
    except
    select unnest(private.mentioned_members(new.workspace_id, old.body)));
  if cardinality(mentioned) = 0 then
    return null;
  end if;
  perform private.watch(new.workspace_id, new.task_id, mentioned);
  about := jsonb_build_object('task', private.notification_task(task),
                              'excerpt', private.notification_excerpt(new.body));
  perform private.notify((select auth.uid()), new.workspace_id, new.task_id, new.id,
    mentioned,
    array_fill('mentioned'::text, array[cardinality(mentioned)]),
    array_fill(about, array[cardinality(mentioned)]));
  return null;
end
$function$;
