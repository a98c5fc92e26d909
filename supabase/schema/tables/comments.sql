-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.comments.

create table public.comments (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  task_id uuid not null,
  author_id uuid default auth.uid(),
  body text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  edited_at timestamp with time zone,
  client_key uuid,
  constraint comments_pkey PRIMARY KEY (id),
  constraint comments_body_check CHECK (char_length(btrim(body)) >= 1 AND char_length(btrim(body)) <= 5000),
  constraint comments_author_id_fkey FOREIGN KEY (author_id) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint comments_author_profile_fkey FOREIGN KEY (author_id) REFERENCES public.profiles(id) ON DELETE SET NULL,
  constraint comments_task_fkey FOREIGN KEY (task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE
);

CREATE INDEX comments_author_id_idx ON public.comments USING btree (author_id);
CREATE UNIQUE INDEX comments_client_key ON public.comments USING btree (author_id, client_key);
CREATE INDEX comments_task_idx ON public.comments USING btree (task_id, created_at);
CREATE INDEX comments_words_idx ON public.comments USING gin (workspace_id, public.comment_search_words(body));
CREATE INDEX comments_workspace_id_idx ON public.comments USING btree (workspace_id);

alter table public.comments enable row level security;

create policy "aal2 once a factor is verified" on public.comments
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "authors and admins delete comments" on public.comments
  for delete
  to authenticated
  using (author_id = (( SELECT auth.uid() AS uid)) AND ( SELECT public.has_role(comments.workspace_id, 'member'::public.workspace_role) AS has_role) OR ( SELECT public.has_role(comments.workspace_id, 'admin'::public.workspace_role) AS has_role));

create policy "authors edit their comments" on public.comments
  for update
  to authenticated
  using (author_id = (( SELECT auth.uid() AS uid)) AND ( SELECT public.has_role(comments.workspace_id, 'member'::public.workspace_role) AS has_role))
  with check (author_id = (( SELECT auth.uid() AS uid)) AND ( SELECT public.has_role(comments.workspace_id, 'member'::public.workspace_role) AS has_role));

create policy "members comment on tasks of active projects" on public.comments
  for insert
  to authenticated
  with check (( SELECT public.has_role(comments.workspace_id, 'member'::public.workspace_role) AS has_role) AND author_id = (( SELECT auth.uid() AS uid)) AND ( SELECT public.task_is_writable(comments.task_id) AS task_is_writable));

create policy "members read comments" on public.comments
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND NOT (task_id IN ( SELECT public.trashed_task_ids() AS trashed_task_ids)));

CREATE TRIGGER comments_activity AFTER INSERT ON public.comments FOR EACH ROW EXECUTE FUNCTION public.record_activity();
CREATE TRIGGER comments_board_cache_delete AFTER DELETE ON public.comments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_children();
CREATE TRIGGER comments_board_cache_insert AFTER INSERT ON public.comments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_children();
CREATE TRIGGER comments_mark_edited BEFORE UPDATE ON public.comments FOR EACH ROW EXECUTE FUNCTION public.mark_comment_edited();
CREATE TRIGGER comments_notify AFTER INSERT ON public.comments FOR EACH ROW WHEN (COALESCE(current_setting('crewboard.import_source'::text, true), ''::text) = ''::text) EXECUTE FUNCTION private.notify_of_comment();
CREATE TRIGGER comments_notify_edit AFTER UPDATE OF body ON public.comments FOR EACH ROW WHEN (old.body IS DISTINCT FROM new.body) EXECUTE FUNCTION private.notify_of_comment();

grant select, delete, references, trigger, maintain on public.comments to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.comments to service_role;
grant insert (workspace_id, task_id, author_id, body, client_key) on public.comments to authenticated;
grant update (body) on public.comments to authenticated;

alter publication supabase_realtime add table public.comments;
