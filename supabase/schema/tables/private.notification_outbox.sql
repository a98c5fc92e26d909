-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table private.notification_outbox.

create table private.notification_outbox (
  notification_id bigint not null,
  recipient_id uuid not null,
  queued_at timestamp with time zone default now() not null,
  constraint notification_outbox_pkey PRIMARY KEY (notification_id),
  constraint notification_outbox_notification_id_fkey FOREIGN KEY (notification_id) REFERENCES public.notifications(id) ON DELETE CASCADE,
  constraint notification_outbox_recipient_id_fkey FOREIGN KEY (recipient_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE INDEX notification_outbox_recipient_idx ON private.notification_outbox USING btree (recipient_id);
