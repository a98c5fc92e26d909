-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.comment_search_words(text).

CREATE OR REPLACE FUNCTION public.comment_search_words(body text)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select to_tsvector('simple'::regconfig, body)
$function$;
grant execute on function public.comment_search_words(text) to authenticated, service_role;
