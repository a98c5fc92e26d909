-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.task_links.

create table public.task_links (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  from_task_id uuid not null,
  to_task_id uuid not null,
  kind text not null,
  created_by uuid default auth.uid(),
  created_at timestamp with time zone default now() not null,
  constraint task_links_pkey PRIMARY KEY (id),
  constraint task_links_kind CHECK (kind = ANY (ARRAY['blocks'::text, 'relates'::text, 'duplicates'::text])),
  constraint task_links_not_self CHECK (from_task_id <> to_task_id),
  constraint task_links_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint task_links_from_fkey FOREIGN KEY (from_task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE,
  constraint task_links_to_fkey FOREIGN KEY (to_task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE
);

CREATE INDEX task_links_from_idx ON public.task_links USING btree (from_task_id, workspace_id);
CREATE UNIQUE INDEX task_links_pair_key ON public.task_links USING btree (LEAST(from_task_id, to_task_id), GREATEST(from_task_id, to_task_id));
CREATE INDEX task_links_to_idx ON public.task_links USING btree (to_task_id, workspace_id);
CREATE INDEX task_links_workspace_idx ON public.task_links USING btree (workspace_id);

alter table public.task_links enable row level security;

create policy "aal2 once a factor is verified" on public.task_links
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members link tasks of active projects" on public.task_links
  for insert
  to authenticated
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND ( SELECT public.task_is_writable(task_links.from_task_id) AS task_is_writable) AND ( SELECT public.task_is_writable(task_links.to_task_id) AS task_is_writable));

create policy "members read links" on public.task_links
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND NOT (from_task_id IN ( SELECT public.trashed_task_ids() AS trashed_task_ids)) AND NOT (to_task_id IN ( SELECT public.trashed_task_ids() AS trashed_task_ids)));

create policy "members unlink tasks of active projects" on public.task_links
  for delete
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('member'::public.workspace_role) AS my_workspace_ids)) AND ( SELECT public.task_is_writable(task_links.from_task_id) AS task_is_writable) AND ( SELECT public.task_is_writable(task_links.to_task_id) AS task_is_writable));

CREATE TRIGGER task_links_board_cache_delete AFTER DELETE ON public.task_links REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_links();
CREATE TRIGGER task_links_board_cache_insert AFTER INSERT ON public.task_links REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_task_links();
CREATE TRIGGER task_links_history AFTER INSERT OR DELETE ON public.task_links FOR EACH ROW EXECUTE FUNCTION private.task_history_of_task_links();

grant select, delete, references, trigger, maintain on public.task_links to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.task_links to service_role;
grant insert (workspace_id, from_task_id, to_task_id, kind) on public.task_links to authenticated;
