-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.saved_views_trim_name().

CREATE OR REPLACE FUNCTION public.saved_views_trim_name()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  new.name := btrim(new.name);
  new.updated_at := now();
  return new;
end
$function$;
grant execute on function public.saved_views_trim_name() to service_role;
