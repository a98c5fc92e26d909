-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: projects: their keys.

CREATE OR REPLACE FUNCTION public.next_project_key(workspace uuid, name text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  base text := public.project_key_from_name(name);
  candidate text := base;
  n integer := 1;
begin
  perform pg_advisory_xact_lock(hashtextextended('project_key:' || workspace::text, 0));
  while exists (select 1 from public.projects p where p.workspace_id = workspace and p.key = candidate) loop
    n := n + 1;
    candidate := base || n::text;
  end loop;
  return candidate;
end
$function$;
grant execute on function public.next_project_key(uuid,text) to service_role;

CREATE OR REPLACE FUNCTION public.project_key_from_name(name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case when char_length(letters) >= 2 then left(letters, 3) else 'PRJ' end
    from (
      select ltrim(
               regexp_replace(
                 upper(regexp_replace(normalize(name, NFD), '[\u0300-\u036f]', '', 'g')),
                 '[^A-Z0-9]', '', 'g'),
               '0123456789') as letters
    ) cleaned
$function$;
grant execute on function public.project_key_from_name(text) to anon, authenticated, public, service_role;

CREATE OR REPLACE FUNCTION public.projects_default_key()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  new.key := public.next_project_key(new.workspace_id, new.name);
  return new;
end
$function$;
grant execute on function public.projects_default_key() to service_role;
