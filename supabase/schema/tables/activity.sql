-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.activity.

create table public.activity (
  id bigint generated always as identity,
  workspace_id uuid not null,
  project_id uuid,
  task_id uuid,
  actor_id uuid,
  kind text not null,
  data jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  constraint activity_pkey PRIMARY KEY (id),
  constraint activity_kind_check CHECK (kind = ANY (ARRAY['project_created'::text, 'project_archived'::text, 'project_restored'::text, 'task_created'::text, 'task_moved'::text, 'task_assigned'::text, 'task_deleted'::text, 'comment_added'::text, 'member_joined'::text, 'member_left'::text])),
  constraint activity_actor_id_fkey FOREIGN KEY (actor_id) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint activity_actor_profile_fkey FOREIGN KEY (actor_id) REFERENCES public.profiles(id) ON DELETE SET NULL,
  constraint activity_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE,
  constraint activity_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id) ON DELETE SET NULL,
  constraint activity_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE INDEX activity_actor_id_idx ON public.activity USING btree (actor_id);
CREATE INDEX activity_project_id_idx ON public.activity USING btree (project_id);
CREATE INDEX activity_task_id_idx ON public.activity USING btree (task_id);
CREATE INDEX activity_workspace_recent_idx ON public.activity USING btree (workspace_id, created_at DESC);

alter table public.activity enable row level security;

create policy "aal2 once a factor is verified" on public.activity
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members read activity" on public.activity
  for select
  to authenticated
  using ((workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND (task_id IS NULL OR NOT (task_id IN ( SELECT public.trashed_task_ids() AS trashed_task_ids))));

CREATE TRIGGER activity_task_project BEFORE INSERT ON public.activity FOR EACH ROW EXECUTE FUNCTION public.activity_task_project();

grant select, references, trigger, maintain on public.activity to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.activity to service_role;
