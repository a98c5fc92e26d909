-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notification_excerpt(text).

CREATE OR REPLACE FUNCTION private.notification_excerpt(body text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select left(btrim(regexp_replace(coalesce(body, ''), '\s+', ' ', 'g')), 200)
$function$;
