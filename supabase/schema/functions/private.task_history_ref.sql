-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.task_history_ref(uuid).

CREATE OR REPLACE FUNCTION private.task_history_ref(task uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select jsonb_build_object('id', t.id, 'ref', p.key || '-' || t.number, 'title', t.title)
    from public.tasks t
    join public.projects p on p.id = t.project_id
   where t.id = task
$function$;
