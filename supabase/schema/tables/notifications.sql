-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.notifications.

create table public.notifications (
  id bigint generated always as identity,
  recipient_id uuid not null,
  workspace_id uuid not null,
  task_id uuid,
  comment_id uuid,
  actor_id uuid,
  kind text not null,
  data jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  read_at timestamp with time zone,
  archived_at timestamp with time zone,
  constraint notifications_pkey PRIMARY KEY (id),
  constraint notifications_kind_check CHECK (kind = ANY (ARRAY['assigned'::text, 'mentioned'::text, 'commented'::text, 'status_changed'::text, 'added_to_workspace'::text])),
  constraint notifications_actor_id_fkey FOREIGN KEY (actor_id) REFERENCES auth.users(id) ON DELETE SET NULL,
  constraint notifications_actor_profile_fkey FOREIGN KEY (actor_id) REFERENCES public.profiles(id) ON DELETE SET NULL,
  constraint notifications_comment_id_fkey FOREIGN KEY (comment_id) REFERENCES public.comments(id) ON DELETE CASCADE,
  constraint notifications_recipient_id_fkey FOREIGN KEY (recipient_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint notifications_task_fkey FOREIGN KEY (task_id, workspace_id) REFERENCES public.tasks(id, workspace_id) ON DELETE CASCADE,
  constraint notifications_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE
);

CREATE INDEX notifications_actor_id_idx ON public.notifications USING btree (actor_id);
CREATE INDEX notifications_comment_id_idx ON public.notifications USING btree (comment_id);
CREATE INDEX notifications_inbox_idx ON public.notifications USING btree (recipient_id, created_at DESC, id DESC) WHERE (archived_at IS NULL);
CREATE INDEX notifications_task_id_idx ON public.notifications USING btree (task_id, workspace_id);
CREATE INDEX notifications_unread_idx ON public.notifications USING btree (recipient_id) WHERE ((read_at IS NULL) AND (archived_at IS NULL));
CREATE INDEX notifications_workspace_id_idx ON public.notifications USING btree (workspace_id);

alter table public.notifications enable row level security;

create policy "aal2 once a factor is verified" on public.notifications
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "people mark their own notifications" on public.notifications
  for update
  to authenticated
  using (recipient_id = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND (task_id IS NULL OR (EXISTS ( SELECT 1
     FROM public.tasks t
    WHERE t.id = notifications.task_id))))
  with check (recipient_id = (( SELECT auth.uid() AS uid)));

create policy "people read their own notifications" on public.notifications
  for select
  to authenticated
  using (recipient_id = (( SELECT auth.uid() AS uid)) AND (workspace_id IN ( SELECT public.my_workspace_ids() AS my_workspace_ids)) AND (task_id IS NULL OR (EXISTS ( SELECT 1
     FROM public.tasks t
    WHERE t.id = notifications.task_id))));

CREATE TRIGGER notifications_queue_email AFTER INSERT ON public.notifications REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION private.queue_notification_emails();

grant select, references, trigger, maintain on public.notifications to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.notifications to service_role;
grant update (read_at, archived_at) on public.notifications to authenticated;

alter publication supabase_realtime add table public.notifications;
