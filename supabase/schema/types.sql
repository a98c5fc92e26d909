-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Types: enums, domains and composite types.

create type public.status_category as enum (
  'backlog',
  'unstarted',
  'started',
  'completed',
  'canceled'
);

create type public.task_priority as enum (
  'none',
  'low',
  'medium',
  'high',
  'urgent'
);

create type public.workspace_role as enum (
  'viewer',
  'member',
  'admin',
  'owner'
);

create type private.board_parts as (
  project json,
  people json,
  columns json
);
