-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.saved_views.

create table public.saved_views (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  project_id uuid not null,
  owner_id uuid default auth.uid() not null,
  name text not null,
  kind text default 'board'::text not null,
  query jsonb default '{}'::jsonb not null,
  shared boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint saved_views_pkey PRIMARY KEY (id),
  constraint saved_views_kind CHECK (kind = ANY (ARRAY['board'::text, 'list'::text])),
  constraint saved_views_name_length CHECK (name = btrim(name) AND char_length(name) >= 1 AND char_length(name) <= 80),
  constraint saved_views_name_printable CHECK (name !~ '[\u0001-\u001f\u007f-\u009f]'::text),
  constraint saved_views_query_known CHECK (jsonb_typeof(query) = 'object'::text AND (query - ARRAY['assignee'::text, 'priority'::text, 'due'::text, 'q'::text, 'label'::text, 'sort'::text, 'dir'::text]) = '{}'::jsonb AND octet_length(query::text) <= 8000),
  constraint saved_views_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint saved_views_project_fkey FOREIGN KEY (project_id, workspace_id) REFERENCES public.projects(id, workspace_id) ON DELETE CASCADE,
  constraint saved_views_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE INDEX saved_views_owner_id_idx ON public.saved_views USING btree (owner_id);
CREATE UNIQUE INDEX saved_views_personal_name_key ON public.saved_views USING btree (project_id, owner_id, lower(name)) WHERE (NOT shared);
CREATE INDEX saved_views_project_id_idx ON public.saved_views USING btree (project_id, workspace_id);
CREATE UNIQUE INDEX saved_views_shared_name_key ON public.saved_views USING btree (project_id, lower(name)) WHERE shared;
CREATE INDEX saved_views_workspace_id_idx ON public.saved_views USING btree (workspace_id);

alter table public.saved_views enable row level security;

create policy "aal2 once a factor is verified" on public.saved_views
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "admins delete shared views" on public.saved_views
  for delete
  to authenticated
  using (shared AND (workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "admins save shared views" on public.saved_views
  for insert
  to authenticated
  with check (shared AND owner_id = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "admins share and unshare views" on public.saved_views
  for update
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)) AND (shared OR owner_id = (( SELECT auth.uid() AS uid))))
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)) AND (shared OR owner_id = (( SELECT auth.uid() AS uid))));

create policy "members read shared views and their own" on public.saved_views
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND (shared OR owner_id = (( SELECT auth.uid() AS uid))));

create policy "members save personal views" on public.saved_views
  for insert
  to authenticated
  with check (NOT shared AND owner_id = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)));

create policy "people change their own personal views" on public.saved_views
  for update
  to authenticated
  using (NOT shared AND owner_id = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)))
  with check (NOT shared AND owner_id = (( SELECT auth.uid() AS uid)));

create policy "people delete their own personal views" on public.saved_views
  for delete
  to authenticated
  using (NOT shared AND owner_id = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)));

CREATE TRIGGER saved_views_trim_name BEFORE INSERT OR UPDATE ON public.saved_views FOR EACH ROW EXECUTE FUNCTION public.saved_views_trim_name();

grant select, delete, references, trigger, maintain on public.saved_views to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.saved_views to service_role;
grant insert (workspace_id, project_id, name, kind, query, shared) on public.saved_views to authenticated;
grant update (name, query, shared) on public.saved_views to authenticated;
