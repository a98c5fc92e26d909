-- Project keys, second step (after 20261123170000_project_keys.sql, which filled them in): validate
-- the checks in a transaction of their own, where the scan holds a lock that lets reads and writes
-- through, then make the column NOT NULL, which needs no scan of its own once a validated check says
-- so (PostgreSQL 12+).
alter table public.projects validate constraint projects_key_format;
alter table public.projects validate constraint projects_key_not_null;
alter table public.projects alter column key set not null;
alter table public.projects drop constraint projects_key_not_null;

-- Unique per workspace (repeated across workspaces); also the index an address's key is found by.
create unique index projects_workspace_key on public.projects (workspace_id, key);
