-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.tasks.

create table public.tasks (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  project_id uuid not null,
  number integer default 0 not null,
  title text not null,
  description text default ''::text not null,
  "position" numeric default 0 not null,
  priority public.task_priority default 'none'::public.task_priority not null,
  assignee_id uuid,
  due_date date,
  created_by uuid default auth.uid(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  client_key uuid,
  status_id uuid not null,
  parent_id uuid,
  deleted_at timestamp with time zone,
  deleted_by uuid,
  constraint tasks_pkey PRIMARY KEY (id),
  constraint tasks_id_workspace_key UNIQUE (id, workspace_id),
  constraint tasks_project_number_key UNIQUE (project_id, number),
  constraint tasks_description_check CHECK (char_length(description) <= 20000),
  constraint tasks_title_check CHECK (char_length(btrim(title)) >= 1 AND char_length(btrim(title)) <= 200),
  constraint tasks_assignee_fkey FOREIGN KEY (workspace_id, assignee_id) REFERENCES public.workspace_members(workspace_id, user_id) ON DELETE SET NULL (assignee_id),
  constraint tasks_assignee_profile_fkey FOREIGN KEY (assignee_id) REFERENCES public.profiles(id) ON DELETE SET NULL,
  constraint tasks_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint tasks_deleted_by_fkey FOREIGN KEY (deleted_by) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint tasks_parent_fkey FOREIGN KEY (parent_id, project_id) REFERENCES public.tasks(id, project_id) ON DELETE SET NULL (parent_id),
  constraint tasks_project_fkey FOREIGN KEY (project_id, workspace_id) REFERENCES public.projects(id, workspace_id) ON DELETE CASCADE,
  constraint tasks_status_fkey FOREIGN KEY (status_id, project_id) REFERENCES public.project_statuses(id, project_id)
);

CREATE INDEX tasks_assignee_idx ON public.tasks USING btree (workspace_id, assignee_id);
CREATE INDEX tasks_board_order_idx ON public.tasks USING btree (project_id, "position", id);
CREATE UNIQUE INDEX tasks_client_key ON public.tasks USING btree (created_by, client_key);
CREATE INDEX tasks_created_by_idx ON public.tasks USING btree (created_by);
CREATE INDEX tasks_list_due_idx ON public.tasks USING btree (project_id, due_date, number) WHERE (deleted_at IS NULL);
CREATE INDEX tasks_list_updated_idx ON public.tasks USING btree (project_id, updated_at, number) WHERE (deleted_at IS NULL);
CREATE INDEX tasks_overview_idx ON public.tasks USING btree (workspace_id, project_id, status_id) INCLUDE (due_date, deleted_at);
CREATE INDEX tasks_parent_idx ON public.tasks USING btree (parent_id, project_id);
CREATE INDEX tasks_status_order_idx ON public.tasks USING btree (status_id, "position", id);
CREATE INDEX tasks_title_words_idx ON public.tasks USING gin (workspace_id, to_tsvector('simple'::regconfig, title));
CREATE INDEX tasks_trash_idx ON public.tasks USING btree (workspace_id, deleted_at) WHERE (deleted_at IS NOT NULL);
CREATE INDEX tasks_words_idx ON public.tasks USING gin (workspace_id, public.task_search_words(title, description));

alter table public.tasks enable row level security;

create policy "aal2 once a factor is verified" on public.tasks
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members create tasks in active projects" on public.tasks
  for insert
  to authenticated
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND NOT (project_id IN ( SELECT public.archived_project_ids() AS archived_project_ids)) AND created_by = (( SELECT auth.uid() AS uid)));

create policy "members edit tasks in active projects" on public.tasks
  for update
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND NOT (project_id IN ( SELECT public.archived_project_ids() AS archived_project_ids)) AND deleted_at IS NULL)
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND NOT (project_id IN ( SELECT public.archived_project_ids() AS archived_project_ids)));

create policy "members read tasks" on public.tasks
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND deleted_at IS NULL);

CREATE TRIGGER tasks_activity AFTER DELETE OR UPDATE OF status_id, assignee_id ON public.tasks FOR EACH ROW EXECUTE FUNCTION public.record_activity();
CREATE TRIGGER tasks_activity_imported AFTER INSERT ON public.tasks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.record_imported_activity();
CREATE TRIGGER tasks_activity_insert AFTER INSERT ON public.tasks FOR EACH ROW WHEN (COALESCE(current_setting('crewboard.import_source'::text, true), ''::text) = ''::text) EXECUTE FUNCTION public.record_activity();
CREATE TRIGGER tasks_board_cache_delete AFTER DELETE ON public.tasks REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_tasks();
CREATE TRIGGER tasks_board_cache_insert AFTER INSERT ON public.tasks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_tasks();
CREATE TRIGGER tasks_board_cache_structure AFTER UPDATE ON public.tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_structure();
CREATE TRIGGER tasks_board_cache_update AFTER UPDATE ON public.tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_tasks();
CREATE TRIGGER tasks_check_parent BEFORE INSERT OR UPDATE OF parent_id ON public.tasks FOR EACH ROW WHEN (new.parent_id IS NOT NULL) EXECUTE FUNCTION public.tasks_check_parent();
CREATE TRIGGER tasks_forget_trashed_emails AFTER UPDATE OF deleted_at ON public.tasks FOR EACH ROW WHEN (old.deleted_at IS NULL AND new.deleted_at IS NOT NULL) EXECUTE FUNCTION private.forget_trashed_task_emails();
CREATE TRIGGER tasks_history AFTER UPDATE OF title, status_id, assignee_id, priority, due_date ON public.tasks FOR EACH ROW EXECUTE FUNCTION private.task_history_of_tasks();
CREATE TRIGGER tasks_history_insert AFTER INSERT ON public.tasks FOR EACH ROW WHEN (COALESCE(current_setting('crewboard.import_source'::text, true), ''::text) = ''::text) EXECUTE FUNCTION private.task_history_of_tasks();
CREATE TRIGGER tasks_history_trash AFTER UPDATE OF deleted_at ON public.tasks FOR EACH ROW WHEN (old.deleted_at IS DISTINCT FROM new.deleted_at) EXECUTE FUNCTION private.task_history_of_trash();
CREATE TRIGGER tasks_notify_insert AFTER INSERT ON public.tasks FOR EACH ROW WHEN (COALESCE(current_setting('crewboard.import_source'::text, true), ''::text) = ''::text) EXECUTE FUNCTION private.notify_of_new_task();
CREATE TRIGGER tasks_notify_update AFTER UPDATE OF assignee_id, status_id, description ON public.tasks FOR EACH ROW WHEN (old.assignee_id IS DISTINCT FROM new.assignee_id OR old.status_id IS DISTINCT FROM new.status_id OR old.description IS DISTINCT FROM new.description) EXECUTE FUNCTION private.notify_of_task_change();
CREATE TRIGGER tasks_number BEFORE INSERT ON public.tasks FOR EACH ROW EXECUTE FUNCTION public.number_new_task();
CREATE TRIGGER tasks_parent_history_insert AFTER INSERT ON public.tasks FOR EACH ROW WHEN (new.parent_id IS NOT NULL) EXECUTE FUNCTION private.task_history_of_parents();
CREATE TRIGGER tasks_parent_history_update AFTER UPDATE OF parent_id ON public.tasks FOR EACH ROW WHEN (new.parent_id IS DISTINCT FROM old.parent_id) EXECUTE FUNCTION private.task_history_of_parents();
CREATE TRIGGER tasks_touch_updated_at BEFORE UPDATE ON public.tasks FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();

grant select, references, trigger, maintain on public.tasks to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.tasks to service_role;
grant insert (workspace_id, project_id, title, description, priority, assignee_id, due_date, created_by, client_key, status_id, parent_id) on public.tasks to authenticated;
grant update (title, description, "position", priority, assignee_id, due_date, status_id, parent_id) on public.tasks to authenticated;

alter publication supabase_realtime add table public.tasks;
