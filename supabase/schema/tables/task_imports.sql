-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.task_imports.

create table public.task_imports (
  id uuid default gen_random_uuid() not null,
  workspace_id uuid not null,
  project_id uuid not null,
  created_by uuid default auth.uid() not null,
  source text not null,
  file_name text default ''::text not null,
  payload jsonb not null,
  created_at timestamp with time zone default now() not null,
  constraint task_imports_pkey PRIMARY KEY (id),
  constraint task_imports_file_name_length CHECK (char_length(file_name) <= 255),
  constraint task_imports_payload_shape CHECK (jsonb_typeof(payload -> 'tasks'::text) = 'array'::text AND jsonb_array_length(payload -> 'tasks'::text) <= 5000),
  constraint task_imports_source_check CHECK (source = ANY (ARRAY['CSV'::text, 'Trello'::text])),
  constraint task_imports_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint task_imports_project_fkey FOREIGN KEY (project_id, workspace_id) REFERENCES public.projects(id, workspace_id) ON DELETE CASCADE
);

CREATE INDEX task_imports_created_at_idx ON public.task_imports USING btree (created_at);
CREATE INDEX task_imports_created_by_idx ON public.task_imports USING btree (created_by, created_at);
CREATE INDEX task_imports_project_idx ON public.task_imports USING btree (project_id, workspace_id);
CREATE INDEX task_imports_workspace_id_idx ON public.task_imports USING btree (workspace_id);

alter table public.task_imports enable row level security;

create policy "aal2 once a factor is verified" on public.task_imports
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "admins stage imports" on public.task_imports
  for insert
  to authenticated
  with check (created_by = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids('admin'::public.workspace_role) AS my_workspace_ids)));

create policy "uploaders drop their imports" on public.task_imports
  for delete
  to authenticated
  using (created_by = (( SELECT auth.uid() AS uid)));

create policy "uploaders read their imports" on public.task_imports
  for select
  to authenticated
  using (created_by = (( SELECT auth.uid() AS uid)));

grant select, delete on public.task_imports to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.task_imports to service_role;
grant insert (workspace_id, project_id, source, file_name, payload) on public.task_imports to authenticated;
