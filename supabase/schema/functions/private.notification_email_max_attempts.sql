-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.notification_email_max_attempts().

CREATE OR REPLACE FUNCTION private.notification_email_max_attempts()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$ select 12 $function$;
grant execute on function private.notification_email_max_attempts() to public;
