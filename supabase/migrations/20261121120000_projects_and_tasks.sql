-- Projects (boards) and their tasks. Admins manage projects; members work on tasks; viewers read.
-- Archived projects are read-only.

create table public.projects (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 80),
  description text not null default '' check (char_length(description) <= 2000),
  archived_at timestamptz,
  next_task_number integer not null default 1,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Lets tasks name (project, workspace) together, so a task can never sit in another workspace's project.
  constraint projects_id_workspace_key unique (id, workspace_id)
);

create index projects_workspace_id_idx on public.projects (workspace_id);
create index projects_created_by_idx on public.projects (created_by);

create trigger projects_touch_updated_at
  before update on public.projects
  for each row execute function public.touch_updated_at();

create function public.project_is_active(project uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.projects p where p.id = project and p.archived_at is null)
$$;

revoke execute on function public.project_is_active(uuid) from public, anon;
grant execute on function public.project_is_active(uuid) to authenticated;

alter table public.projects enable row level security;

create policy "members read projects" on public.projects
  for select to authenticated using ((select public.is_member(workspace_id)));

create policy "admins create projects" on public.projects
  for insert to authenticated
  with check ((select public.has_role(workspace_id, 'admin')) and created_by = (select auth.uid()));

create policy "admins rename and archive projects" on public.projects
  for update to authenticated
  using ((select public.has_role(workspace_id, 'admin')))
  with check ((select public.has_role(workspace_id, 'admin')));

revoke all on public.projects from anon;
revoke insert, update, delete, truncate on public.projects from authenticated;
grant insert (workspace_id, name, description, created_by) on public.projects to authenticated;
grant update (name, description, archived_at) on public.projects to authenticated;

-- tasks -----------------------------------------------------------------------------------------------
create type public.task_status as enum ('backlog', 'todo', 'in_progress', 'done');
create type public.task_priority as enum ('none', 'low', 'medium', 'high', 'urgent');

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  project_id uuid not null,
  number integer not null,
  title text not null check (char_length(btrim(title)) between 1 and 200),
  description text not null default '' check (char_length(description) <= 20000),
  status public.task_status not null default 'todo',
  -- Sparse: a move puts a task between its neighbours' positions and touches no other row.
  position numeric not null,
  priority public.task_priority not null default 'none',
  assignee_id uuid,
  due_date date,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search tsvector generated always as (
    setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')
  ) stored,
  constraint tasks_project_number_key unique (project_id, number),
  constraint tasks_id_workspace_key unique (id, workspace_id),
  constraint tasks_project_fkey foreign key (project_id, workspace_id)
    references public.projects (id, workspace_id) on delete cascade,
  -- The assignee is a member of the task's workspace, and stops being one when they leave.
  constraint tasks_assignee_fkey foreign key (workspace_id, assignee_id)
    references public.workspace_members (workspace_id, user_id) on delete set null (assignee_id)
);

create index tasks_workspace_id_idx on public.tasks (workspace_id);
create index tasks_board_idx on public.tasks (project_id, status, position);
create index tasks_assignee_idx on public.tasks (workspace_id, assignee_id);
create index tasks_created_by_idx on public.tasks (created_by);
create index tasks_search_idx on public.tasks using gin (search);

create trigger tasks_touch_updated_at
  before update on public.tasks
  for each row execute function public.touch_updated_at();

-- Per-project task numbers (#1, #2, …) and a place at the bottom of the column for new tasks.
create function public.number_new_task() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.projects set next_task_number = next_task_number + 1
   where id = new.project_id
   returning next_task_number - 1 into new.number;
  if new.number is null then
    raise exception 'Project not found.' using errcode = 'foreign_key_violation';
  end if;
  if new.position is null then
    select coalesce(max(t.position), 0) + 1024 into new.position
      from public.tasks t where t.project_id = new.project_id and t.status = new.status;
  end if;
  return new;
end
$$;

revoke execute on function public.number_new_task() from public, anon, authenticated;

create trigger tasks_number
  before insert on public.tasks
  for each row execute function public.number_new_task();

alter table public.tasks enable row level security;

create policy "members read tasks" on public.tasks
  for select to authenticated using ((select public.is_member(workspace_id)));

create policy "members create tasks in active projects" on public.tasks
  for insert to authenticated
  with check (
    (select public.has_role(workspace_id, 'member'))
    and (select public.project_is_active(project_id))
    and created_by = (select auth.uid())
  );

create policy "members edit tasks in active projects" on public.tasks
  for update to authenticated
  using ((select public.has_role(workspace_id, 'member')) and (select public.project_is_active(project_id)))
  with check ((select public.has_role(workspace_id, 'member')) and (select public.project_is_active(project_id)));

create policy "admins delete tasks" on public.tasks
  for delete to authenticated using ((select public.has_role(workspace_id, 'admin')));

revoke all on public.tasks from anon;
revoke insert, update, truncate on public.tasks from authenticated;
grant insert (workspace_id, project_id, title, description, status, priority, assignee_id, due_date, created_by)
  on public.tasks to authenticated;
grant update (title, description, status, position, priority, assignee_id, due_date) on public.tasks to authenticated;

-- move_task: put a task in a column, between two neighbours (either may be null: top or bottom).
-- `after_task_id` is the task it should follow (above it); `before_task_id` the task it should precede.
-- Runs as the caller, so RLS decides whether the move is allowed.
create function public.move_task(
  task_id uuid,
  status public.task_status,
  before_task_id uuid default null,
  after_task_id uuid default null
) returns public.tasks
language plpgsql
security invoker
set search_path = ''
as $$
declare
  moving public.tasks;
  above numeric;
  below numeric;
  target numeric;
  moved public.tasks;
begin
  select * into moving from public.tasks t where t.id = move_task.task_id;
  if not found then
    -- PTxyz answers HTTP xyz through PostgREST: a task the caller cannot see does not exist for them.
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if after_task_id is not null then
    select t.position into above from public.tasks t
     where t.id = after_task_id and t.project_id = moving.project_id and t.status = move_task.status;
    if not found then raise exception 'The task to follow is not in that column.' using errcode = 'check_violation'; end if;
  end if;
  if before_task_id is not null then
    select t.position into below from public.tasks t
     where t.id = before_task_id and t.project_id = moving.project_id and t.status = move_task.status;
    if not found then raise exception 'The task to precede is not in that column.' using errcode = 'check_violation'; end if;
  end if;
  target := case
    when above is not null and below is not null then (above + below) / 2
    when above is not null then above + 1024
    when below is not null then below - 1024
    else (select coalesce(max(t.position), 0) + 1024 from public.tasks t
           where t.project_id = moving.project_id and t.status = move_task.status and t.id <> moving.id)
  end;
  update public.tasks t set status = move_task.status, position = target
   where t.id = moving.id
   returning * into moved;
  if not found then
    raise exception 'You cannot move this task.' using errcode = 'insufficient_privilege';
  end if;
  return moved;
end
$$;

revoke execute on function public.move_task(uuid, public.task_status, uuid, uuid) from public, anon;
grant execute on function public.move_task(uuid, public.task_status, uuid, uuid) to authenticated;

-- search_tasks: full text over titles and descriptions of one workspace, best matches first.
create function public.search_tasks(workspace_id uuid, query text) returns setof public.tasks
language sql
stable
security invoker
set search_path = ''
as $$
  select t.*
    from public.tasks t
   where t.workspace_id = search_tasks.workspace_id
     and t.search @@ websearch_to_tsquery('english', query)
   order by ts_rank(t.search, websearch_to_tsquery('english', query)) desc, t.updated_at desc
   limit 50
$$;

revoke execute on function public.search_tasks(uuid, text) from public, anon;
grant execute on function public.search_tasks(uuid, text) to authenticated;

alter publication supabase_realtime add table public.tasks;
