-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table private.rate_limits.

create table private.rate_limits (
  key text not null,
  tokens double precision not null,
  refilled_at timestamp with time zone default now() not null,
  constraint rate_limits_pkey PRIMARY KEY (key)
);
