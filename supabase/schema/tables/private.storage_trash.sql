-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table private.storage_trash.

create table private.storage_trash (
  bucket_id text not null,
  name text not null,
  queued_at timestamp with time zone default now() not null,
  constraint storage_trash_pkey PRIMARY KEY (bucket_id, name)
);
