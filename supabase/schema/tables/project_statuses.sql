-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.project_statuses.

create table public.project_statuses (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  project_id uuid not null,
  name text not null,
  category public.status_category not null,
  "position" numeric default 0 not null,
  created_at timestamp with time zone default now() not null,
  constraint project_statuses_pkey PRIMARY KEY (id),
  constraint project_statuses_id_project_key UNIQUE (id, project_id),
  constraint project_statuses_name_characters CHECK (name !~ '[[:cntrl:]]'::text),
  constraint project_statuses_name_length CHECK (name = btrim(name) AND char_length(name) >= 1 AND char_length(name) <= 30),
  constraint project_statuses_project_fkey FOREIGN KEY (project_id, workspace_id) REFERENCES public.projects(id, workspace_id) ON DELETE CASCADE
);

CREATE UNIQUE INDEX project_statuses_name_key ON public.project_statuses USING btree (project_id, lower(name));
CREATE INDEX project_statuses_order_idx ON public.project_statuses USING btree (project_id, "position", id);
CREATE INDEX project_statuses_workspace_idx ON public.project_statuses USING btree (workspace_id);

alter table public.project_statuses enable row level security;

create policy "aal2 once a factor is verified" on public.project_statuses
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "admins add statuses" on public.project_statuses
  for insert
  to authenticated
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "admins change statuses" on public.project_statuses
  for update
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)))
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "admins delete statuses" on public.project_statuses
  for delete
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "members read statuses" on public.project_statuses
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)));

CREATE TRIGGER project_statuses_before_insert BEFORE INSERT ON public.project_statuses FOR EACH ROW EXECUTE FUNCTION public.project_statuses_before_insert();
CREATE TRIGGER project_statuses_board_cache_blockers AFTER UPDATE ON public.project_statuses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_status_blockers();
CREATE TRIGGER project_statuses_board_cache_delete AFTER DELETE ON public.project_statuses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_statuses();
CREATE TRIGGER project_statuses_board_cache_insert AFTER INSERT ON public.project_statuses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_statuses();
CREATE TRIGGER project_statuses_board_cache_update AFTER UPDATE ON public.project_statuses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_statuses();
CREATE TRIGGER project_statuses_keep_completed AFTER DELETE OR UPDATE OF category, project_id ON public.project_statuses FOR EACH ROW EXECUTE FUNCTION public.project_statuses_keep_completed();
CREATE TRIGGER project_statuses_move_trashed_tasks BEFORE DELETE ON public.project_statuses FOR EACH ROW EXECUTE FUNCTION private.move_trashed_tasks_off_status();

grant select, delete on public.project_statuses to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.project_statuses to service_role;
grant insert (workspace_id, project_id, name, category, "position") on public.project_statuses to authenticated;
grant update (name, category, "position") on public.project_statuses to authenticated;

alter publication supabase_realtime add table public.project_statuses;
