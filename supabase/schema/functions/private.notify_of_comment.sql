-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notify_of_comment().

CREATE OR REPLACE FUNCTION private.notify_of_comment()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  task public.tasks;
  mentioned uuid[];
  watchers uuid[] := '{}';
  about jsonb;
begin
  select * into task from public.tasks t where t.id = new.task_id;
  if not found or task.deleted_at is not null then
    return null;
  end if;
  if tg_op = 'INSERT' then
    mentioned := private.mentioned_members(new.workspace_id, new.body);
    watchers := array(select w.user_id from public.task_watchers w where w.task_id = new.task_id);
  else
    mentioned := array(
      select unnest(private.mentioned_members(new.workspace_id, new.body))
      except
      select unnest(private.mentioned_members(new.workspace_id, old.body)));
  end if;
  if cardinality(mentioned) + cardinality(watchers) = 0 then
    return null;
  end if;
  perform private.watch(new.workspace_id, new.task_id, mentioned);
  about := jsonb_build_object('task', private.notification_task(task),
                              'excerpt', private.notification_excerpt(new.body));
  perform private.notify((select auth.uid()), new.workspace_id, new.task_id, new.id,
    mentioned || watchers,
    array_fill('mentioned'::text, array[cardinality(mentioned)])
      || array_fill('commented'::text, array[cardinality(watchers)]),
    array_fill(about, array[cardinality(mentioned) + cardinality(watchers)]));
  return null;
end
$function$;
