-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table private.notification_email_state.

create table private.notification_email_state (
  user_id uuid not null,
  last_sent_at timestamp with time zone,
  constraint notification_email_state_pkey PRIMARY KEY (user_id),
  constraint notification_email_state_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
