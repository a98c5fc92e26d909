-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.text_is_date(text).

CREATE OR REPLACE FUNCTION public.text_is_date(value text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  perform value::date;
  return true;
exception when invalid_datetime_format or datetime_field_overflow then
  return false;
end
$function$;
grant execute on function public.text_is_date(text) to authenticated, service_role;
