-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table public.notification_preferences.

create table public.notification_preferences (
  user_id uuid not null,
  inbox_kinds text[] default '{assigned,mentioned,commented,status_changed,added_to_workspace}'::text[] not null,
  email_kinds text[] default '{assigned,mentioned,commented,status_changed,added_to_workspace}'::text[] not null,
  email_frequency text default 'instant'::text not null,
  updated_at timestamp with time zone default now() not null,
  constraint notification_preferences_pkey PRIMARY KEY (user_id),
  constraint notification_preferences_frequency_check CHECK (email_frequency = ANY (ARRAY['instant'::text, 'hourly'::text, 'daily'::text, 'never'::text])),
  constraint notification_preferences_kinds_check CHECK (inbox_kinds <@ '{assigned,mentioned,commented,status_changed,added_to_workspace}'::text[] AND email_kinds <@ '{assigned,mentioned,commented,status_changed,added_to_workspace}'::text[]),
  constraint notification_preferences_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

alter table public.notification_preferences enable row level security;

create policy "aal2 once a factor is verified" on public.notification_preferences
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "people change their own preferences" on public.notification_preferences
  for update
  to authenticated
  using (user_id = (( SELECT auth.uid() AS uid)))
  with check (user_id = (( SELECT auth.uid() AS uid)));

create policy "people read their own preferences" on public.notification_preferences
  for select
  to authenticated
  using (user_id = (( SELECT auth.uid() AS uid)));

create policy "people set their own preferences" on public.notification_preferences
  for insert
  to authenticated
  with check (user_id = (( SELECT auth.uid() AS uid)));

grant select, insert, update, references, trigger, maintain on public.notification_preferences to authenticated;
grant select, insert, update, delete, truncate, references, trigger, maintain on public.notification_preferences to service_role;
