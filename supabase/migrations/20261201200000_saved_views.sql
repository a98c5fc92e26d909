-- Saved views (SPEC sections 3, 5 and 6): a named board or list of a project, with its filters and
-- sort, kept by one person for themselves or shared with the workspace. Anyone who reads the project
-- reads its shared views and their own personal ones; any member, viewers included, saves personal
-- views; admins and the owner share, unshare and delete shared ones; a person deletes their own
-- personal views.

create table public.saved_views (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  project_id uuid not null,
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  kind text not null default 'board',
  -- The view's GET parameters, by name: a string each, or a list of strings (label). Only the names the
  -- board and the list read are kept; the app checks the values as it checks an address's.
  query jsonb not null default '{}',
  shared boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A view belongs to a project of its own workspace, and goes with it.
  constraint saved_views_project_fkey foreign key (project_id, workspace_id)
    references public.projects (id, workspace_id) on delete cascade,
  -- As a project name (ProjectSchema): 1 to 80 characters, trimmed, without control characters.
  constraint saved_views_name_length check (name = btrim(name) and char_length(name) between 1 and 80),
  constraint saved_views_name_printable check (name !~ '[\u0001-\u001f\u007f-\u009f]'),
  constraint saved_views_kind check (kind in ('board', 'list')),
  constraint saved_views_query_known check (
    jsonb_typeof(query) = 'object'
    and query - array['assignee', 'priority', 'due', 'q', 'label', 'sort', 'dir'] = '{}'::jsonb
    and octet_length(query::text) <= 8000
  )
);

-- Names are unique, in any letter case, among one person's views of a project and among its shared ones.
create unique index saved_views_personal_name_key on public.saved_views (project_id, owner_id, lower(name))
  where not shared;
create unique index saved_views_shared_name_key on public.saved_views (project_id, lower(name))
  where shared;
-- The policies' and the sidebar's column, and the foreign keys'.
create index saved_views_workspace_id_idx on public.saved_views (workspace_id);
create index saved_views_project_id_idx on public.saved_views (project_id, workspace_id);
create index saved_views_owner_id_idx on public.saved_views (owner_id);

create function public.saved_views_trim_name() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  new.updated_at := now();
  return new;
end
$$;

revoke execute on function public.saved_views_trim_name() from public, anon, authenticated;

create trigger saved_views_trim_name
  before insert or update on public.saved_views
  for each row execute function public.saved_views_trim_name();

alter table public.saved_views enable row level security;

create policy "aal2 once a factor is verified" on public.saved_views
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "members read shared views and their own" on public.saved_views
  for select to authenticated
  using (
    workspace_id in (select public.my_workspace_ids())
    and (shared or owner_id = (select auth.uid()))
  );

create policy "members save personal views" on public.saved_views
  for insert to authenticated
  with check (
    not shared
    and owner_id = (select auth.uid())
    and workspace_id in (select public.my_workspace_ids())
  );

create policy "admins save shared views" on public.saved_views
  for insert to authenticated
  with check (
    shared
    and owner_id = (select auth.uid())
    and workspace_id in (select public.my_workspace_ids('admin'))
  );

create policy "people change their own personal views" on public.saved_views
  for update to authenticated
  using (not shared and owner_id = (select auth.uid()) and workspace_id in (select public.my_workspace_ids()))
  with check (not shared and owner_id = (select auth.uid()));

-- Sharing and unsharing one's own views, renaming any shared one. Another person's shared view is not
-- unshared, only deleted: unshared, it would be theirs alone, and an update must leave the row
-- readable by whoever makes it (PostgREST reads the changed rows back).
create policy "admins share and unshare views" on public.saved_views
  for update to authenticated
  using (
    workspace_id in (select public.my_workspace_ids('admin'))
    and (shared or owner_id = (select auth.uid()))
  )
  with check (
    workspace_id in (select public.my_workspace_ids('admin'))
    and (shared or owner_id = (select auth.uid()))
  );

create policy "people delete their own personal views" on public.saved_views
  for delete to authenticated
  using (not shared and owner_id = (select auth.uid()) and workspace_id in (select public.my_workspace_ids()));

create policy "admins delete shared views" on public.saved_views
  for delete to authenticated
  using (shared and workspace_id in (select public.my_workspace_ids('admin')));

revoke all on public.saved_views from anon;
revoke insert, update, truncate on public.saved_views from authenticated;
grant insert (workspace_id, project_id, name, kind, query, shared) on public.saved_views to authenticated;
grant update (name, query, shared) on public.saved_views to authenticated;

-- Someone who leaves a workspace leaves their personal views of it behind too; shared ones stay.
CREATE OR REPLACE FUNCTION private.forget_former_members()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  delete from public.notifications n
   using old_rows o
   where n.recipient_id = o.user_id and n.workspace_id = o.workspace_id;
  delete from public.task_watchers w
   using old_rows o
   where w.user_id = o.user_id and w.workspace_id = o.workspace_id;
  delete from public.saved_views v
   using old_rows o
   where v.owner_id = o.user_id and v.workspace_id = o.workspace_id and not v.shared;
  return null;
end
$function$;
