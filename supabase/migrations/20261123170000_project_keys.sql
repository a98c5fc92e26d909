-- Project keys: a project's short name within its workspace (`WEB`), which names its
-- tasks (`WEB-12`) and its addresses (`/w/northwind/p/web/t/12`). Two to ten capital letters and
-- digits, starting with a letter; unique per workspace, repeated freely across workspaces. Keys are
-- fixed once a project is made (authenticated users may insert one, never update it), so an address
-- that worked once keeps working.

alter table public.projects add column key text;

-- The key a name suggests: its first three letters and digits, accents dropped, leading digits
-- skipped ("Website relaunch" → WEB, "2027 roadmap" → ROA); PRJ when that leaves fewer than two.
-- The app's copy of this rule (app/utils/project-key.ts) prefills the form as a name is typed.
create function public.project_key_from_name(name text) returns text
language sql
immutable
set search_path = ''
as $$
  select case when char_length(letters) >= 2 then left(letters, 3) else 'PRJ' end
    from (
      select ltrim(
               regexp_replace(
                 upper(regexp_replace(normalize(name, NFD), '[\u0300-\u036f]', '', 'g')),
                 '[^A-Z0-9]', '', 'g'),
               '0123456789') as letters
    ) cleaned
$$;

-- The first key free in the workspace for a name: its suggestion, else with 2, 3, … after it.
-- Serialized per workspace, so two projects made at once never pick the same one.
create function public.next_project_key(workspace uuid, name text) returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- Internal: it reads every project's key of a workspace, RLS aside.
revoke execute on function public.next_project_key(uuid, text) from public, anon, authenticated;

-- A project made without a key gets the one its name suggests (the app sends none when the form's
-- key is blank; tests, scripts and the API may send none at all).
create function public.projects_default_key() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.key := public.next_project_key(new.workspace_id, new.name);
  return new;
end
$$;

revoke execute on function public.projects_default_key() from public, anon, authenticated;

create trigger projects_default_key
  before insert on public.projects
  for each row when (new.key is null) execute function public.projects_default_key();

-- Existing projects, oldest first in each workspace (so the first "Website" keeps WEB).
do $$
declare
  p record;
begin
  for p in select id, workspace_id, name from public.projects order by workspace_id, created_at, id loop
    update public.projects set key = public.next_project_key(p.workspace_id, p.name) where id = p.id;
  end loop;
end
$$;

-- Checked as NOT VALID here, so adding them waits for no scan; the next migration validates them
-- (in its own transaction) and makes the column NOT NULL.
alter table public.projects
  add constraint projects_key_format check (key ~ '^[A-Z][A-Z0-9]{1,9}$') not valid;
alter table public.projects add constraint projects_key_not_null check (key is not null) not valid;

grant insert (key) on public.projects to authenticated;
