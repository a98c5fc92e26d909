-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.fold_name(text).

CREATE OR REPLACE FUNCTION private.fold_name(name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select regexp_replace(lower(coalesce(name, '')), '[^[:alnum:]]', '', 'g')
$function$;
