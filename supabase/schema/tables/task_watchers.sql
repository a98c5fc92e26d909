-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.task_watchers.

create table public.task_watchers (
  task_id uuid not null,
  user_id uuid not null,
  workspace_id uuid not null,
  created_at timestamp with time zone default now() not null,
  constraint task_watchers_pkey PRIMARY KEY (task_id, user_id),
  constraint task_watchers_task_fkey FOREIGN KEY (task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE,
  constraint task_watchers_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE INDEX task_watchers_user_idx ON public.task_watchers USING btree (user_id, workspace_id);
CREATE INDEX task_watchers_workspace_id_idx ON public.task_watchers USING btree (workspace_id);

alter table public.task_watchers enable row level security;

create policy "aal2 once a factor is verified" on public.task_watchers
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members watch tasks they read" on public.task_watchers
  for insert
  to authenticated
  with check (user_id = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)));

create policy "people read what they watch" on public.task_watchers
  for select
  to authenticated
  using (user_id = (( SELECT auth.uid() AS uid)));

create policy "people stop watching" on public.task_watchers
  for delete
  to authenticated
  using (user_id = (( SELECT auth.uid() AS uid)));

grant select, insert, delete, references, trigger, maintain on public.task_watchers to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.task_watchers to service_role;
