-- Creates that can be repeated safely. Each create form carries a one-time key made when the form is
-- rendered; a create that was saved but whose answer was lost (an outage, a dropped connection) is
-- sent again with the same key and inserts nothing the second time
-- (insert … on conflict (created_by, client_key) do nothing, which the unique indexes below answer).
-- Rows made without a key keep NULL, which never conflicts. Indexes rather than constraints: adding
-- a unique constraint to a busy table holds its lock for the whole build.
alter table public.tasks add column client_key uuid;
create unique index tasks_client_key on public.tasks (created_by, client_key);

alter table public.comments add column client_key uuid;
create unique index comments_client_key on public.comments (author_id, client_key);

alter table public.projects add column client_key uuid;
create unique index projects_client_key on public.projects (created_by, client_key);

-- Inserts name their columns (the earlier grants are per column): the key is one of them.
grant insert (client_key) on public.tasks to authenticated;
grant insert (client_key) on public.comments to authenticated;
grant insert (client_key) on public.projects to authenticated;
