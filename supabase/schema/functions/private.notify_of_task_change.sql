-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notify_of_task_change().

CREATE OR REPLACE FUNCTION private.notify_of_task_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  assignee uuid;
  mentioned uuid[] := '{}';
  watchers uuid[] := '{}';
  about jsonb;
  moved jsonb;
begin
  if new.deleted_at is not null then
    return null;
  end if;
  if new.assignee_id is distinct from old.assignee_id then
    assignee := new.assignee_id;
  end if;
  if new.description is distinct from old.description then
    mentioned := array(
      select unnest(private.mentioned_members(new.workspace_id, new.description))
      except
      select unnest(private.mentioned_members(new.workspace_id, old.description)));
  end if;
  if new.status_id is distinct from old.status_id then
    watchers := array(select w.user_id from public.task_watchers w where w.task_id = new.id);
  end if;
  if assignee is null and cardinality(mentioned) = 0 and cardinality(watchers) = 0 then
    return null;
  end if;
  perform private.watch(new.workspace_id, new.id, array[assignee] || mentioned);
  about := jsonb_build_object('task', private.notification_task(new));
  moved := about || jsonb_build_object(
    'from', (select s.name from public.project_statuses s where s.id = old.status_id),
    'to', (select s.name from public.project_statuses s where s.id = new.status_id));
  perform private.notify((select auth.uid()), new.workspace_id, new.id, null,
    array[assignee] || mentioned || watchers,
    array['assigned']
      || array_fill('mentioned'::text, array[cardinality(mentioned)])
      || array_fill('status_changed'::text, array[cardinality(watchers)]),
    array[about]
      || array_fill(
           about || jsonb_build_object('excerpt', private.notification_excerpt(new.description)),
           array[cardinality(mentioned)])
      || array_fill(moved, array[cardinality(watchers)]));
  return null;
end
$function$;
