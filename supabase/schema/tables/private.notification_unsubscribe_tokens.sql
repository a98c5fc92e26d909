-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table private.notification_unsubscribe_tokens.

create table private.notification_unsubscribe_tokens (
  token_hash bytea not null,
  user_id uuid not null,
  expires_at timestamp with time zone not null,
  created_at timestamp with time zone default now() not null,
  constraint notification_unsubscribe_tokens_pkey PRIMARY KEY (token_hash),
  constraint notification_unsubscribe_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);

CREATE INDEX notification_unsubscribe_tokens_user_idx ON private.notification_unsubscribe_tokens USING btree (user_id);
