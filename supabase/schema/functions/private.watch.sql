-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.watch(uuid,uuid,uuid[]).

CREATE OR REPLACE FUNCTION private.watch(ws uuid, task uuid, watchers uuid[])
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  insert into public.task_watchers (task_id, user_id, workspace_id)
  select watch.task, m.user_id, watch.ws
    from public.workspace_members m
   where m.workspace_id = watch.ws
     and m.user_id = any (watch.watchers)
  on conflict do nothing
$function$;
