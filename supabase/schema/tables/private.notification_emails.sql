-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table private.notification_emails.

create table private.notification_emails (
  id bigint generated always as identity,
  recipient_id uuid not null,
  message_key text not null,
  notification_ids bigint[] not null,
  unsubscribe_token text,
  created_at timestamp with time zone default now() not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  leased_until timestamp with time zone,
  last_error text,
  sent_at timestamp with time zone,
  gave_up_at timestamp with time zone,
  constraint notification_emails_pkey PRIMARY KEY (id),
  constraint notification_emails_message_key_key UNIQUE (message_key),
  constraint notification_emails_recipient_id_fkey FOREIGN KEY (recipient_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE INDEX notification_emails_due_idx ON private.notification_emails USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (gave_up_at IS NULL));
CREATE UNIQUE INDEX notification_emails_open_idx ON private.notification_emails USING btree (recipient_id) WHERE ((sent_at IS NULL) AND (gave_up_at IS NULL));
