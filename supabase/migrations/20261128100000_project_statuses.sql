-- A project's own statuses: the board's columns, in order. Each has a name (1–30 characters, unique
-- in the project in any letter case, no control characters) and a category, which gives every status
-- a meaning the product can use (Linear's categories): backlog, unstarted and started are open work;
-- a completed or canceled task is never overdue. A new project starts with Backlog, To do, In
-- progress and Done; a project keeps at least one status, and at least one of category `completed`,
-- and at most 50.
--
-- Tasks name their status by id (tasks.status_id, filled in here from the old enum column, which the
-- next migration drops): each task keeps its column.

create type public.status_category as enum ('backlog', 'unstarted', 'started', 'completed', 'canceled');

create table public.project_statuses (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  project_id uuid not null,
  name text not null,
  category public.status_category not null,
  -- 0 (the default) on insert: placed last (project_statuses_before_insert).
  position numeric not null default 0,
  created_at timestamptz not null default now(),
  -- Named, so the app can tell which rule a name broke and say so next to the field.
  constraint project_statuses_name_length check (name = btrim(name) and char_length(name) between 1 and 30),
  constraint project_statuses_name_characters check (name !~ '[[:cntrl:]]'),
  constraint project_statuses_id_project_key unique (id, project_id),
  constraint project_statuses_project_fkey foreign key (project_id, workspace_id)
    references public.projects (id, workspace_id) on delete cascade
);

create unique index project_statuses_name_key on public.project_statuses (project_id, lower(name));
create index project_statuses_order_idx on public.project_statuses (project_id, position, id);
create index project_statuses_workspace_idx on public.project_statuses (workspace_id);

alter table public.project_statuses enable row level security;

create policy "aal2 once a factor is verified" on public.project_statuses
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "members read statuses" on public.project_statuses
  for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()));

create policy "admins add statuses" on public.project_statuses
  for insert to authenticated
  with check (workspace_id in (select public.my_workspace_ids('admin')));

create policy "admins change statuses" on public.project_statuses
  for update to authenticated
  using (workspace_id in (select public.my_workspace_ids('admin')))
  with check (workspace_id in (select public.my_workspace_ids('admin')));

create policy "admins delete statuses" on public.project_statuses
  for delete to authenticated
  using (workspace_id in (select public.my_workspace_ids('admin')));

revoke all on public.project_statuses from anon, authenticated;
grant select, delete on public.project_statuses to authenticated;
grant insert (workspace_id, project_id, name, category, position) on public.project_statuses to authenticated;
grant update (name, category, position) on public.project_statuses to authenticated;

-- A new status: its workspace is its project's, it goes last unless placed (a position other than
-- the default 0), and a project holds at
-- most 50 (counted under a per-project lock, so two added at once cannot both be the 51st).
create function public.project_statuses_before_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.workspace_id is null then
    select p.workspace_id into new.workspace_id from public.projects p where p.id = new.project_id;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('project_statuses:' || new.project_id::text, 0));
  if (select count(*) from public.project_statuses s where s.project_id = new.project_id) >= 50 then
    -- Worded as PostgreSQL words a constraint's refusal, so the app reads every refusal one way.
    raise exception 'A project has at most 50 statuses (constraint "project_statuses_limit").'
      using errcode = 'check_violation', constraint = 'project_statuses_limit';
  end if;
  if new.position = 0 then
    select coalesce(max(s.position), 0) + 1024 into new.position
      from public.project_statuses s where s.project_id = new.project_id;
  end if;
  return new;
end
$$;

revoke execute on function public.project_statuses_before_insert() from public, anon, authenticated;

create trigger project_statuses_before_insert
  before insert on public.project_statuses
  for each row execute function public.project_statuses_before_insert();

-- A project (while it exists) keeps a status of category `completed`, and so at least one status.
-- Checked after each statement's rows, so a statement may swap one completed status for another.
create function public.project_statuses_keep_completed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.projects p where p.id = old.project_id)
     and not exists (
       select 1 from public.project_statuses s
        where s.project_id = old.project_id and s.category = 'completed') then
    raise exception 'A project keeps a completed status (constraint "project_statuses_keep_completed").'
      using errcode = 'check_violation', constraint = 'project_statuses_keep_completed';
  end if;
  return null;
end
$$;

revoke execute on function public.project_statuses_keep_completed() from public, anon, authenticated;

create trigger project_statuses_keep_completed
  after delete or update of category, project_id on public.project_statuses
  for each row execute function public.project_statuses_keep_completed();

-- Every new project starts with the four columns Crewboard always had.
create function public.project_default_statuses() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.project_statuses (workspace_id, project_id, name, category, position)
  values (new.workspace_id, new.id, 'Backlog', 'backlog', 1024),
         (new.workspace_id, new.id, 'To do', 'unstarted', 2048),
         (new.workspace_id, new.id, 'In progress', 'started', 3072),
         (new.workspace_id, new.id, 'Done', 'completed', 4096);
  return null;
end
$$;

revoke execute on function public.project_default_statuses() from public, anon, authenticated;

create trigger project_default_statuses
  after insert on public.projects
  for each row execute function public.project_default_statuses();

-- The projects there are already: the same four, named as their columns were titled.
insert into public.project_statuses (workspace_id, project_id, name, category, position)
select p.workspace_id, p.id, d.name, d.category::public.status_category, d.position
  from public.projects p
 cross join (values ('Backlog', 'backlog', 1024),
                    ('To do', 'unstarted', 2048),
                    ('In progress', 'started', 3072),
                    ('Done', 'completed', 4096)) as d (name, category, position);

-- Tasks: their status by id. The old column's value picks the status of the same place.
alter table public.tasks add column status_id uuid;

-- Filling the new column changes no card and nobody's work: no updated_at stamp, and each board is
-- built again once, by the next migration, rather than once a task.
alter table public.tasks disable trigger tasks_touch_updated_at;
alter table public.tasks disable trigger tasks_board_cache_update;

update public.tasks t
   set status_id = s.id
  from public.project_statuses s
 where s.project_id = t.project_id
   and s.position = case t.status::text
                      when 'backlog' then 1024
                      when 'todo' then 2048
                      when 'in_progress' then 3072
                      else 4096
                    end;

alter table public.tasks enable trigger tasks_touch_updated_at;
alter table public.tasks enable trigger tasks_board_cache_update;

-- Checked as NOT VALID here, so adding them waits for no scan; the next migration validates them (in
-- its own transaction) and makes the column NOT NULL. A status of another project can never be a
-- task's: the key names the task's own project.
alter table public.tasks
  add constraint tasks_status_fkey foreign key (status_id, project_id)
  references public.project_statuses (id, project_id) not valid;
alter table public.tasks add constraint tasks_status_not_null check (status_id is not null) not valid;
