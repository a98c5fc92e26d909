-- Sub-tasks, second step (after 20261129200000_task_parents.sql): validate the parent key in a
-- transaction of its own, where the scan holds a lock that lets reads and writes through.
alter table public.tasks validate constraint tasks_parent_fkey;

-- Links between two tasks of one workspace (any of its projects): one blocks the other, they relate,
-- or one duplicates the other. Each link reads from one task to the other: `blocks` (from blocks to;
-- to is blocked by from), `duplicates` (from is a duplicate of to), `relates` (both ways alike). Both
-- keys carry the workspace, so a task of another workspace can never be linked, whoever asks; a task
-- is never linked to itself, and two tasks at most once, whatever the kind or the direction. Members,
-- admins and the owner link tasks of active projects and unlink them; viewers read.

create table public.task_links (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  from_task_id uuid not null,
  to_task_id uuid not null,
  kind text not null,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint task_links_kind check (kind in ('blocks', 'relates', 'duplicates')),
  constraint task_links_not_self check (from_task_id <> to_task_id),
  constraint task_links_from_fkey foreign key (from_task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade,
  constraint task_links_to_fkey foreign key (to_task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade
);

-- One link a pair of tasks, whichever way it was made (A relates to B is B relates to A).
create unique index task_links_pair_key
  on public.task_links (least(from_task_id, to_task_id), greatest(from_task_id, to_task_id));
-- A task's links from either side (the panel, the cards' blocked mark), and the keys' cascades.
create index task_links_from_idx on public.task_links (from_task_id, workspace_id);
create index task_links_to_idx on public.task_links (to_task_id, workspace_id);
create index task_links_workspace_idx on public.task_links (workspace_id);

alter table public.task_links enable row level security;

create policy "aal2 once a factor is verified" on public.task_links
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "members read links" on public.task_links
  for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()));

create policy "members link tasks of active projects" on public.task_links
  for insert to authenticated
  with check (
    workspace_id in (select public.my_workspace_ids('member'))
    and (select public.task_is_writable(from_task_id))
    and (select public.task_is_writable(to_task_id))
  );

create policy "members unlink tasks of active projects" on public.task_links
  for delete to authenticated
  using (
    workspace_id in (select public.my_workspace_ids('member'))
    and (select public.task_is_writable(from_task_id))
    and (select public.task_is_writable(to_task_id))
  );

-- Links are made and removed, never changed; who made one is the caller, never a value sent.
revoke all on public.task_links from anon;
revoke insert, update, truncate on public.task_links from authenticated;
grant insert (workspace_id, from_task_id, to_task_id, kind) on public.task_links to authenticated;
