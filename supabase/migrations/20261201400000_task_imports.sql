-- An import waiting for its "Import" button: the tasks a CSV or Trello file became, parsed and checked
-- by the app, kept here between the preview page and the import itself, so the second step needs
-- neither the file again nor a hidden field of up to 10 MB that the browser would post back. Private
-- to the person who uploaded it (no one else reads, imports or deletes it), and only an admin of the
-- workspace may stage one, as only admins import (public.import_tasks runs it).
--
-- payload: {tasks: [{title, description, status, priority, assignee_id, due_date, labels, comments}],
--           statuses: [{name, category}], labels: [{name, color}]} — statuses and labels to create.

create table public.task_imports (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  project_id uuid not null,
  created_by uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- Where the tasks came from, as their history says it: 'CSV' or 'Trello'.
  source text not null,
  file_name text not null default '',
  payload jsonb not null,
  created_at timestamptz not null default now(),
  constraint task_imports_project_fkey foreign key (project_id, workspace_id)
    references public.projects (id, workspace_id) on delete cascade,
  constraint task_imports_source_check check (source in ('CSV', 'Trello')),
  constraint task_imports_file_name_length check (char_length(file_name) <= 255),
  constraint task_imports_payload_shape check (
    jsonb_typeof(payload -> 'tasks') = 'array' and jsonb_array_length(payload -> 'tasks') <= 5000
  )
);

create index task_imports_created_by_idx on public.task_imports (created_by, created_at);
create index task_imports_project_idx on public.task_imports (project_id, workspace_id);
create index task_imports_workspace_id_idx on public.task_imports (workspace_id);

alter table public.task_imports enable row level security;

create policy "aal2 once a factor is verified" on public.task_imports
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "uploaders read their imports" on public.task_imports
  for select to authenticated
  using (created_by = (select auth.uid()));

create policy "admins stage imports" on public.task_imports
  for insert to authenticated
  with check (
    created_by = (select auth.uid())
    and workspace_id in (select public.my_workspace_ids('admin'))
  );

create policy "uploaders drop their imports" on public.task_imports
  for delete to authenticated
  using (created_by = (select auth.uid()));

revoke all on public.task_imports from anon, authenticated;
grant select, delete on public.task_imports to authenticated;
grant insert (workspace_id, project_id, source, file_name, payload) on public.task_imports to authenticated;
