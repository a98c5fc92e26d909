-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.attachments.

create table public.attachments (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  task_id uuid not null,
  path text not null,
  name text not null,
  size bigint not null,
  content_type text not null,
  uploaded_by uuid default auth.uid(),
  created_at timestamp with time zone default now() not null,
  constraint attachments_pkey PRIMARY KEY (id),
  constraint attachments_path_key UNIQUE (path),
  constraint attachments_content_type_check CHECK (char_length(content_type) >= 1 AND char_length(content_type) <= 200),
  constraint attachments_name_check CHECK (char_length(name) >= 1 AND char_length(name) <= 200),
  constraint attachments_path_in_task_folder CHECK (path ~~ (((workspace_id::text || '/'::text) || task_id::text) || '/%'::text)),
  constraint attachments_size_check CHECK (size >= 0 AND size <= (10 * 1024 * 1024)),
  constraint attachments_task_fkey FOREIGN KEY (task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE,
  constraint attachments_uploader_profile_fkey FOREIGN KEY (uploaded_by) REFERENCES public.profiles(id) ON DELETE SET NULL,
  constraint attachments_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE INDEX attachments_task_idx ON public.attachments USING btree (task_id, created_at);
CREATE INDEX attachments_uploaded_by_idx ON public.attachments USING btree (uploaded_by);
CREATE INDEX attachments_workspace_id_idx ON public.attachments USING btree (workspace_id);

alter table public.attachments enable row level security;

create policy "aal2 once a factor is verified" on public.attachments
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members attach files to tasks of active projects" on public.attachments
  for insert
  to authenticated
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND uploaded_by = (( SELECT auth.uid() AS uid)) AND ( SELECT public.task_is_writable(attachments.task_id) AS task_is_writable));

create policy "members read attachments" on public.attachments
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND NOT (task_id IN ( SELECT public.trashed_task_ids() AS trashed_task_ids)));

create policy "uploaders and admins delete attachments" on public.attachments
  for delete
  to authenticated
  using (uploaded_by = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) OR (workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

CREATE TRIGGER attachments_board_cache_delete AFTER DELETE ON public.attachments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_children();
CREATE TRIGGER attachments_board_cache_insert AFTER INSERT ON public.attachments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_children();
CREATE TRIGGER attachments_trash_file AFTER DELETE ON public.attachments FOR EACH ROW EXECUTE FUNCTION private.trash_attachment_file();

grant select, delete, references, trigger, maintain on public.attachments to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.attachments to service_role;
grant insert (id, workspace_id, task_id, path, name, size, content_type, uploaded_by) on public.attachments to authenticated;
