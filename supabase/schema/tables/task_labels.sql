-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.task_labels.

create table public.task_labels (
  task_id uuid not null,
  label_id uuid not null,
  workspace_id uuid not null,
  created_at timestamp with time zone default now() not null,
  constraint task_labels_pkey PRIMARY KEY (task_id, label_id),
  constraint task_labels_label_fkey FOREIGN KEY (label_id, workspace_id) REFERENCES public.labels(id, workspace_id) ON DELETE CASCADE,
  constraint task_labels_task_fkey FOREIGN KEY (task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE
);

CREATE INDEX task_labels_label_idx ON public.task_labels USING btree (label_id, workspace_id);
CREATE INDEX task_labels_workspace_idx ON public.task_labels USING btree (workspace_id);

alter table public.task_labels enable row level security;

create policy "aal2 once a factor is verified" on public.task_labels
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members label tasks of active projects" on public.task_labels
  for insert
  to authenticated
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND ( SELECT public.task_is_writable(task_labels.task_id) AS task_is_writable));

create policy "members read labels on tasks" on public.task_labels
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND NOT (task_id IN ( SELECT public.trashed_task_ids() AS trashed_task_ids)));

create policy "members unlabel tasks of active projects" on public.task_labels
  for delete
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND ( SELECT public.task_is_writable(task_labels.task_id) AS task_is_writable));

CREATE TRIGGER task_labels_board_cache_delete AFTER DELETE ON public.task_labels REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_children();
CREATE TRIGGER task_labels_board_cache_insert AFTER INSERT ON public.task_labels REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_children();
CREATE TRIGGER task_labels_history AFTER DELETE ON public.task_labels FOR EACH ROW EXECUTE FUNCTION private.task_history_of_task_labels();
CREATE TRIGGER task_labels_history_imported AFTER INSERT ON public.task_labels REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.record_imported_labels();
CREATE TRIGGER task_labels_history_insert AFTER INSERT ON public.task_labels FOR EACH ROW WHEN (COALESCE(current_setting('crewboard.import_source'::text, true), ''::text) = ''::text) EXECUTE FUNCTION private.task_history_of_task_labels();

grant select, delete, references, trigger, maintain on public.task_labels to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.task_labels to service_role;
grant insert (task_id, label_id, workspace_id) on public.task_labels to authenticated;

alter publication supabase_realtime add table public.task_labels;
