-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notification_task(public.tasks).

CREATE OR REPLACE FUNCTION private.notification_task(task public.tasks)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select jsonb_build_object('ref', p.key || '-' || task.number, 'title', task.title)
    from public.projects p
   where p.id = task.project_id
$function$;
