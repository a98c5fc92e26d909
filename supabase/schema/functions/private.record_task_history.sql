-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.record_task_history(uuid,uuid,text,jsonb).

CREATE OR REPLACE FUNCTION private.record_task_history(ws uuid, task uuid, kind text, data jsonb)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  insert into public.task_history (workspace_id, task_id, actor_id, kind, data)
  values (ws, task, (select u.id from auth.users u where u.id = (select auth.uid())), kind,
          coalesce(data, '{}'::jsonb))
$function$;
