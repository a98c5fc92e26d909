-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.task_history.

create table public.task_history (
  id bigint generated always as identity,
  workspace_id uuid not null,
  task_id uuid not null,
  actor_id uuid,
  kind text not null,
  data jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  constraint task_history_pkey PRIMARY KEY (id),
  constraint task_history_kind_check CHECK (kind = ANY (ARRAY['created'::text, 'title'::text, 'status'::text, 'assignee'::text, 'priority'::text, 'due_date'::text, 'label_added'::text, 'label_removed'::text, 'parent'::text, 'link_added'::text, 'link_removed'::text, 'deleted'::text, 'restored'::text, 'imported'::text])),
  constraint task_history_actor_id_fkey FOREIGN KEY (actor_id) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint task_history_task_fkey FOREIGN KEY (task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE
);

CREATE INDEX task_history_actor_id_idx ON public.task_history USING btree (actor_id);
CREATE INDEX task_history_task_idx ON public.task_history USING btree (task_id, created_at);
CREATE INDEX task_history_workspace_id_idx ON public.task_history USING btree (workspace_id);

alter table public.task_history enable row level security;

create policy "aal2 once a factor is verified" on public.task_history
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members read the history of tasks" on public.task_history
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND NOT (task_id IN ( SELECT public.trashed_task_ids() AS trashed_task_ids)));

grant select, references, trigger, maintain on public.task_history to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.task_history to service_role;

alter publication supabase_realtime add table public.task_history;
