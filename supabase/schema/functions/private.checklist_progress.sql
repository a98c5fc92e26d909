-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.checklist_progress(text).

CREATE OR REPLACE FUNCTION private.checklist_progress(body text)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select case when count(*) > 0
              then jsonb_build_object('done', count(*) filter (where c.checked), 'total', count(*)) end
    from public.checklist_items(checklist_progress.body) c
   where checklist_progress.body ~ '\[[ xX]\]'
$function$;
grant execute on function private.checklist_progress(text) to authenticated;
