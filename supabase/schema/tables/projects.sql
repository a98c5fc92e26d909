-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.projects.

create table public.projects (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  name text not null,
  description text default ''::text not null,
  archived_at timestamp with time zone,
  next_task_number integer default 1 not null,
  created_by uuid default auth.uid(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  client_key uuid,
  key text not null,
  constraint projects_pkey PRIMARY KEY (id),
  constraint projects_id_workspace_key UNIQUE (id, workspace_id),
  constraint projects_description_check CHECK (char_length(description) <= 2000),
  constraint projects_key_format CHECK (key ~ '^[A-Z][A-Z0-9]{1,9}$'::text),
  constraint projects_name_check CHECK (char_length(btrim(name)) >= 1 AND char_length(btrim(name)) <= 80),
  constraint projects_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint projects_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE UNIQUE INDEX projects_client_key ON public.projects USING btree (created_by, client_key);
CREATE INDEX projects_created_by_idx ON public.projects USING btree (created_by);
CREATE INDEX projects_workspace_id_idx ON public.projects USING btree (workspace_id);
CREATE UNIQUE INDEX projects_workspace_key ON public.projects USING btree (workspace_id, key);

alter table public.projects enable row level security;

create policy "aal2 once a factor is verified" on public.projects
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "admins create projects" on public.projects
  for insert
  to authenticated
  with check (( SELECT public.has_role(projects.workspace_id, 'admin'::public.workspace_role) AS has_role) AND created_by = (( SELECT auth.uid() AS uid)));

create policy "admins rename and archive projects" on public.projects
  for update
  to authenticated
  using (( SELECT public.has_role(projects.workspace_id, 'admin'::public.workspace_role) AS has_role))
  with check (( SELECT public.has_role(projects.workspace_id, 'admin'::public.workspace_role) AS has_role));

create policy "members read projects" on public.projects
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)));

CREATE TRIGGER project_default_statuses AFTER INSERT ON public.projects FOR EACH ROW EXECUTE FUNCTION public.project_default_statuses();
CREATE TRIGGER projects_activity AFTER INSERT OR UPDATE OF archived_at ON public.projects FOR EACH ROW EXECUTE FUNCTION public.record_activity();
CREATE TRIGGER projects_board_cache_insert AFTER INSERT ON public.projects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_projects();
CREATE TRIGGER projects_board_cache_update AFTER UPDATE ON public.projects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_projects();
CREATE TRIGGER projects_default_key BEFORE INSERT ON public.projects FOR EACH ROW WHEN (new.key IS NULL) EXECUTE FUNCTION public.projects_default_key();
CREATE TRIGGER projects_touch_updated_at BEFORE UPDATE ON public.projects FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();

grant select, references, trigger, maintain on public.projects to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.projects to service_role;
grant insert (workspace_id, name, description, created_by, client_key, key) on public.projects to authenticated;
grant update (name, description, archived_at) on public.projects to authenticated;
