-- Imports staged for a preview and never run: a person who uploads a file and leaves the preview page
-- leaves up to 10 MB behind in public.task_imports. The purge-trash Edge Function's daily run now
-- deletes those staged more than a day ago (a preview is a step of minutes; one left for a day is
-- abandoned, and its file can be uploaded again). At most `max_rows` at a time, oldest first;
-- answers how many went. For the service role only.

create function public.purge_stale_imports(max_rows integer default 500) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

revoke execute on function public.purge_stale_imports(integer) from public, anon, authenticated;
grant execute on function public.purge_stale_imports(integer) to service_role;

-- The purge's oldest-first scan.
create index task_imports_created_at_idx on public.task_imports (created_at);
