-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.purge_stale_imports(integer).

CREATE OR REPLACE FUNCTION public.purge_stale_imports(max_rows integer DEFAULT 500)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  purged integer;
begin
  delete from public.task_imports i
   where i.id in (
     select o.id from public.task_imports o
      where o.created_at < now() - interval '1 day'
      order by o.created_at
      limit greatest(purge_stale_imports.max_rows, 1)
   );
  get diagnostics purged = row_count;
  return purged;
end
$function$;
grant execute on function public.purge_stale_imports(integer) to service_role;
