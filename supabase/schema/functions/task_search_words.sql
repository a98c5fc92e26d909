-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.task_search_words(text,text).

CREATE OR REPLACE FUNCTION public.task_search_words(title text, description text)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select setweight(to_tsvector('simple'::regconfig, title), 'A')
      || setweight(to_tsvector('simple'::regconfig, description), 'B')
$function$;
grant execute on function public.task_search_words(text,text) to authenticated, service_role;
