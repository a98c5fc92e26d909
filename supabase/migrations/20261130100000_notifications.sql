-- Notifications: who watches which task, what each person has been told, and how they want to be told.
-- Rows are written by the database only (security-definer triggers, in the same transaction as the
-- change they report); people read and mark their own. A later migration adds the triggers.
--
-- Kinds of notification, and their data (names kept as they were, as task_history keeps them):
--   assigned            {task: {ref, title}}                  someone else assigned you the task
--   mentioned           {task: {ref, title}, excerpt}         someone else wrote @you in its text or a comment
--   commented           {task: {ref, title}, excerpt}         someone else commented on a task you watch
--   status_changed      {task: {ref, title}, from, to}        someone else moved a task you watch
--   added_to_workspace  {workspace: {slug, name}, role}       someone else added you to a workspace

create table public.task_watchers (
  task_id uuid not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  workspace_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (task_id, user_id),
  constraint task_watchers_task_fkey foreign key (task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade
);

create index task_watchers_user_idx on public.task_watchers (user_id, workspace_id);
create index task_watchers_workspace_id_idx on public.task_watchers (workspace_id);

create table public.notifications (
  id bigint generated always as identity primary key,
  recipient_id uuid not null references auth.users (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- The task it is about (null for added_to_workspace); gone with the task.
  task_id uuid,
  -- The comment it is about, for mentioned and commented from a comment; gone with the comment.
  comment_id uuid references public.comments (id) on delete cascade,
  -- Who did it; null once their account is gone.
  actor_id uuid references auth.users (id) on delete set null,
  kind text not null,
  data jsonb not null default '{}',
  created_at timestamptz not null default now(),
  read_at timestamptz,
  archived_at timestamptz,
  constraint notifications_task_fkey foreign key (task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade,
  constraint notifications_kind_check check (kind in (
    'assigned', 'mentioned', 'commented', 'status_changed', 'added_to_workspace'
  ))
);

-- The inbox, newest first, and its unread count.
create index notifications_inbox_idx on public.notifications (recipient_id, created_at desc, id desc)
  where archived_at is null;
create index notifications_unread_idx on public.notifications (recipient_id)
  where read_at is null and archived_at is null;
create index notifications_workspace_id_idx on public.notifications (workspace_id);
create index notifications_task_id_idx on public.notifications (task_id, workspace_id);
create index notifications_comment_id_idx on public.notifications (comment_id);
create index notifications_actor_id_idx on public.notifications (actor_id);

-- How each person wants to be told. No row: the defaults (everything, in the inbox and by email, as
-- it happens).
create table public.notification_preferences (
  user_id uuid primary key references auth.users (id) on delete cascade,
  -- The kinds shown in the inbox, and the kinds sent by email.
  inbox_kinds text[] not null
    default '{assigned,mentioned,commented,status_changed,added_to_workspace}',
  email_kinds text[] not null
    default '{assigned,mentioned,commented,status_changed,added_to_workspace}',
  -- How often email may come: instant (batched by NOTIFICATION_EMAIL_INTERVAL_SECONDS), hourly,
  -- daily, never.
  email_frequency text not null default 'instant',
  updated_at timestamptz not null default now(),
  constraint notification_preferences_kinds_check check (
    inbox_kinds <@ '{assigned,mentioned,commented,status_changed,added_to_workspace}'::text[]
    and email_kinds <@ '{assigned,mentioned,commented,status_changed,added_to_workspace}'::text[]
  ),
  constraint notification_preferences_frequency_check check (
    email_frequency in ('instant', 'hourly', 'daily', 'never')
  )
);

alter table public.task_watchers enable row level security;
alter table public.notifications enable row level security;
alter table public.notification_preferences enable row level security;

create policy "aal2 once a factor is verified" on public.task_watchers
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));
create policy "aal2 once a factor is verified" on public.notifications
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));
create policy "aal2 once a factor is verified" on public.notification_preferences
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

-- Watching: your own rows, on tasks of your workspaces (anyone who reads a task may watch it).
create policy "people read what they watch" on public.task_watchers
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy "members watch tasks they read" on public.task_watchers
  for insert to authenticated
  with check (user_id = (select auth.uid()) and workspace_id in (select public.my_workspace_ids()));
create policy "people stop watching" on public.task_watchers
  for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on public.task_watchers from anon;
revoke update, truncate on public.task_watchers from authenticated;

-- Notifications: only their recipient reads them, and only while a member of their workspace;
-- the recipient marks them read or archived, and changes nothing else.
create policy "people read their own notifications" on public.notifications
  for select to authenticated
  using (recipient_id = (select auth.uid()) and workspace_id in (select public.my_workspace_ids()));
create policy "people mark their own notifications" on public.notifications
  for update to authenticated
  using (recipient_id = (select auth.uid()) and workspace_id in (select public.my_workspace_ids()))
  with check (recipient_id = (select auth.uid()));

revoke all on public.notifications from anon;
revoke insert, update, delete, truncate on public.notifications from authenticated;
grant update (read_at, archived_at) on public.notifications to authenticated;

-- Preferences: your own row.
create policy "people read their own preferences" on public.notification_preferences
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy "people set their own preferences" on public.notification_preferences
  for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "people change their own preferences" on public.notification_preferences
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

revoke all on public.notification_preferences from anon;
revoke delete, truncate on public.notification_preferences from authenticated;

-- The unread count follows new notifications over realtime (recipients only, as the policies say).
alter publication supabase_realtime add table public.notifications;
