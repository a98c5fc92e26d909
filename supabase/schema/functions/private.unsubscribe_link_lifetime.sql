-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.unsubscribe_link_lifetime().

CREATE OR REPLACE FUNCTION private.unsubscribe_link_lifetime()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$ select interval '60 days' $function$;
grant execute on function private.unsubscribe_link_lifetime() to public;
