-- The workspace's trash: deleting a task moves it there (tasks.deleted_at, tasks.deleted_by), where
-- an admin can restore it for 30 days; then public.purge_trash, called on a schedule by the
-- purge-trash Edge Function, deletes it for good with its comments and files.
--
-- A task in the trash is gone from every read: the tasks' own policy hides it, and with it its
-- comments, files (rows and storage objects) and labels; the security-definer readers (the board,
-- the kept boards) leave it out by name. Clients cannot set the two columns (no column privilege):
-- only trash_task and restore_task do, after checking the caller's role (admins, as SPEC's role
-- table has it for deleting tasks). Tasks are no longer deleted through the API at all.

alter table public.tasks
  add column deleted_at timestamptz,
  add column deleted_by uuid;

-- Checked for new rows now; the existing rows (all null) are validated in the next migration.
alter table public.tasks
  add constraint tasks_deleted_by_fkey foreign key (deleted_by) references auth.users (id)
  on delete set null not valid;

-- The trash of a workspace, newest first, and the purge's oldest-first scan.
create index tasks_trash_idx on public.tasks (workspace_id, deleted_at) where deleted_at is not null;

-- The overview counts a workspace's tasks from this index alone; it now has to see which are in the
-- trash, so the column joins the index (otherwise every task's row would be read as well).
create index tasks_overview_live_idx on public.tasks (workspace_id, project_id, status_id)
  include (due_date, deleted_at);
-- Not CONCURRENTLY: the CLI runs each migration file in a transaction (see .squawk.toml), and
-- dropping an index holds its table's lock only for the catalog change.
-- squawk-ignore require-concurrent-index-deletion
drop index public.tasks_overview_idx;
alter index public.tasks_overview_live_idx rename to tasks_overview_idx;

-- Tasks are deleted only by the purge (and with their project or workspace).
drop policy "admins delete tasks" on public.tasks;
revoke delete on public.tasks from authenticated;

drop policy "members read tasks" on public.tasks;
create policy "members read tasks" on public.tasks
  for select
  to authenticated
  using (workspace_id in (select public.my_workspace_ids()) and deleted_at is null);

drop policy "members edit tasks in active projects" on public.tasks;
create policy "members edit tasks in active projects" on public.tasks
  for update
  to authenticated
  using (
    workspace_id in (select public.my_workspace_ids('member'))
    and not project_id in (select public.archived_project_ids())
    and deleted_at is null
  )
  with check (
    workspace_id in (select public.my_workspace_ids('member'))
    and not project_id in (select public.archived_project_ids())
  );

-- The ids of the trashed tasks of the caller's workspaces: what the policies of a task's comments,
-- files and labels leave out. Read once per statement (a hashed subplan); tasks_trash_idx finds them.
create function public.trashed_task_ids() returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select t.id from public.tasks t
     where t.deleted_at is not null
       and t.workspace_id in (select public.my_workspace_ids());
end
$$;

revoke execute on function public.trashed_task_ids() from public, anon;
grant execute on function public.trashed_task_ids() to authenticated;

drop policy "members read comments" on public.comments;
create policy "members read comments" on public.comments
  for select
  to authenticated
  using (
    workspace_id in (select public.my_workspace_ids())
    and not task_id in (select public.trashed_task_ids())
  );

drop policy "members read attachments" on public.attachments;
create policy "members read attachments" on public.attachments
  for select
  to authenticated
  using (
    workspace_id in (select public.my_workspace_ids())
    and not task_id in (select public.trashed_task_ids())
  );

drop policy "members read labels on tasks" on public.task_labels;
create policy "members read labels on tasks" on public.task_labels
  for select
  to authenticated
  using (
    workspace_id in (select public.my_workspace_ids())
    and not task_id in (select public.trashed_task_ids())
  );

-- Files go only onto tasks that are writable: in an active project, and not in the trash.
drop policy "members attach files to tasks of active projects" on public.attachments;
create policy "members attach files to tasks of active projects" on public.attachments
  for insert
  to authenticated
  with check (
    workspace_id in (select public.my_workspace_ids('member'))
    and uploaded_by = (select auth.uid())
    and (select public.task_is_writable(attachments.task_id))
  );

-- Comments, labels and files: only on a task in an active project that is not in the trash.
create or replace function public.task_is_writable(task uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.tasks t join public.projects p on p.id = t.project_id
       where t.id = task and p.archived_at is null and t.deleted_at is null
    )
  );
end
$$;

-- A trashed task's storage objects: neither read, nor uploaded to, nor deleted by a client.
create or replace function public.attachment_folder_ok(object_name text, at_least public.workspace_role)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.tasks t
       where t.workspace_id::text = (storage.foldername(object_name))[1]
         and t.id::text = (storage.foldername(object_name))[2]
         and t.deleted_at is null
         and t.workspace_id in (select public.my_workspace_ids(at_least))
    )
  );
end
$$;

-- Moves a task to the trash. Admins only (SPEC section 6), in an active project. Answers the task's
-- id, number and project, for the "moved to the trash" message and its Undo.
create function public.trash_task(task_id uuid) returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  found_task public.tasks;
begin
  -- The caller sees only their workspaces' tasks that are not in the trash already.
  select * into found_task
    from public.tasks t
   where t.id = trash_task.task_id
     and t.deleted_at is null
     and t.workspace_id in (select public.my_workspace_ids())
     for update;
  if not found then
    -- PTxyz answers HTTP xyz through PostgREST.
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not public.has_role(found_task.workspace_id, 'admin') then
    raise exception 'Only admins delete tasks.' using errcode = 'insufficient_privilege';
  end if;
  if exists (select 1 from public.projects p where p.id = found_task.project_id and p.archived_at is not null) then
    raise exception 'This project is archived: its tasks cannot be deleted.' using errcode = 'PT409';
  end if;
  update public.tasks t set deleted_at = now(), deleted_by = auth.uid() where t.id = found_task.id;
  return json_build_object('id', found_task.id, 'number', found_task.number, 'project_id', found_task.project_id);
end
$$;

revoke execute on function public.trash_task(uuid) from public, anon;
grant execute on function public.trash_task(uuid) to authenticated;

-- Takes a task out of the trash, as it was: its status, place, number, comments, files and labels
-- never left it. Admins only; refused (409, saying why) when the task is no longer in the trash or
-- its project is archived. A task whose project was deleted went with it: it is no longer there.
create function public.restore_task(task_id uuid) returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  found_task public.tasks;
  project public.projects;
begin
  select * into found_task
    from public.tasks t
   where t.id = restore_task.task_id
     and t.workspace_id in (select public.my_workspace_ids())
     for update;
  if found and not public.has_role(found_task.workspace_id, 'admin') then
    raise exception 'Only admins restore tasks.' using errcode = 'insufficient_privilege';
  end if;
  if not found or found_task.deleted_at is null then
    raise exception 'This task is no longer in the trash: it was restored, purged, or deleted with its project.'
      using errcode = 'PT409';
  end if;
  select * into project from public.projects p where p.id = found_task.project_id;
  if project.archived_at is not null then
    raise exception 'Its project % is archived: unarchive the project to restore the task.', project.name
      using errcode = 'PT409';
  end if;
  update public.tasks t set deleted_at = null, deleted_by = null where t.id = found_task.id;
  return json_build_object('id', found_task.id, 'number', found_task.number, 'project_id', found_task.project_id,
                           'project_key', project.key);
end
$$;

revoke execute on function public.restore_task(uuid) from public, anon;
grant execute on function public.restore_task(uuid) to authenticated;

-- The workspace's trash for its admins, newest first: each task with its project, who deleted it
-- and when, and when it will be purged. Anyone else gets nothing.
create function public.trashed_tasks(workspace_id uuid) returns table (
  id uuid,
  number integer,
  title text,
  project_id uuid,
  project_key text,
  project_name text,
  project_archived boolean,
  deleted_at timestamptz,
  deleted_by_name text,
  purge_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.has_role(trashed_tasks.workspace_id, 'admin') then
    return;
  end if;
  return query
    select t.id, t.number, t.title, p.id, p.key, p.name, p.archived_at is not null,
           t.deleted_at, pr.display_name, t.deleted_at + private.trash_keeps()
      from public.tasks t
      join public.projects p on p.id = t.project_id
      left join public.profiles pr on pr.id = t.deleted_by
     where t.workspace_id = trashed_tasks.workspace_id
       and t.deleted_at is not null
     order by t.deleted_at desc, t.id;
end
$$;

revoke execute on function public.trashed_tasks(uuid) from public, anon;
grant execute on function public.trashed_tasks(uuid) to authenticated;

-- How long a task stays in the trash.
create function private.trash_keeps() returns interval
language sql
immutable
set search_path = ''
as $$ select interval '30 days' $$;

-- Deletes the tasks that have been in the trash longer than that, with their comments, labels and
-- files' rows (the files' storage objects go to private.storage_trash, which the caller then
-- empties). At most `max_tasks` at a time, oldest first; answers how many went. For the purge-trash
-- Edge Function (service role) only.
create function public.purge_trash(max_tasks integer default 500) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  purged integer;
begin
  delete from public.tasks t
   where t.id in (
     select o.id from public.tasks o
      where o.deleted_at < now() - private.trash_keeps()
      order by o.deleted_at
      limit greatest(purge_trash.max_tasks, 1)
   );
  get diagnostics purged = row_count;
  return purged;
end
$$;

revoke execute on function public.purge_trash(integer) from public, anon, authenticated;
grant execute on function public.purge_trash(integer) to service_role;

-- The kept boards: a task going to the trash or coming back changes its board.
create or replace function private.board_cache_tasks() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(select distinct n.project_id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.refresh_board_cache(array(select distinct o.project_id from old_rows o));
  else
    perform private.refresh_board_cache(array(
      select unnest(array[o.project_id, n.project_id])
        from old_rows o
        join new_rows n on n.id = o.id
       where (n.project_id, n.number, n.title, n.status_id, n.position, n.priority, n.due_date, n.assignee_id,
              n.deleted_at)
             is distinct from
             (o.project_id, o.number, o.title, o.status_id, o.position, o.priority, o.due_date, o.assignee_id,
              o.deleted_at)));
  end if;
  return null;
end
$$;
