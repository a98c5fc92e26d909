-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Table private.board_cache.

create table private.board_cache (
  project_id uuid not null,
  project json,
  people json,
  columns json,
  constraint board_cache_pkey PRIMARY KEY (project_id),
  constraint board_cache_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE
);

comment on table private.board_cache is 'private.board_content(workspace, project, ''{}'', ''{}'') for each project, kept by triggers; read by board_page.';
