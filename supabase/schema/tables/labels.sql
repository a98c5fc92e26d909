-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.labels.

create table public.labels (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  name text not null,
  color text not null,
  created_at timestamp with time zone default now() not null,
  constraint labels_pkey PRIMARY KEY (id),
  constraint labels_id_workspace_key UNIQUE (id, workspace_id),
  constraint labels_color_in_palette CHECK (color = ANY (ARRAY['gray'::text, 'red'::text, 'orange'::text, 'yellow'::text, 'green'::text, 'teal'::text, 'blue'::text, 'indigo'::text, 'purple'::text, 'pink'::text])),
  constraint labels_name_length CHECK (name = btrim(name) AND char_length(name) >= 1 AND char_length(name) <= 30),
  constraint labels_name_printable CHECK (name !~ '[\u0001-\u001f\u007f-\u009f]'::text),
  constraint labels_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE UNIQUE INDEX labels_workspace_name_key ON public.labels USING btree (workspace_id, lower(name));

alter table public.labels enable row level security;

create policy "aal2 once a factor is verified" on public.labels
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "admins create labels" on public.labels
  for insert
  to authenticated
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "admins delete labels" on public.labels
  for delete
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "admins rename and recolour labels" on public.labels
  for update
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)))
  with check ((workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "members read labels" on public.labels
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)));

CREATE TRIGGER labels_board_cache_update AFTER UPDATE ON public.labels REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.board_cache_labels();
CREATE TRIGGER labels_per_workspace BEFORE INSERT ON public.labels FOR EACH ROW EXECUTE FUNCTION public.labels_limit_per_workspace();
CREATE TRIGGER labels_trim_name BEFORE INSERT OR UPDATE OF name ON public.labels FOR EACH ROW EXECUTE FUNCTION public.labels_trim_name();

grant select, delete, references, trigger, maintain on public.labels to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.labels to service_role;
grant insert (workspace_id, name, color) on public.labels to authenticated;
grant update (name, color) on public.labels to authenticated;

alter publication supabase_realtime add table public.labels;
