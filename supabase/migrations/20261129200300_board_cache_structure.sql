-- Kept boards (private.board_cache) with sub-tasks and links (after board_content, the migration
-- before): a card shows its sub-tasks' progress and whether an open task blocks it, so a kept board
-- is built again when
-- - a task gets, changes or loses its parent (its parent's progress; a sub-task is of its parent's
--   project, and a sub-task's own status, made or deleted, is already a change of that board);
-- - a task that blocks others changes status, on the boards of the tasks it blocks (its own board
--   is rebuilt by board_cache_tasks);
-- - a status changes category, on the boards of the tasks its tasks block;
-- - a `blocks` link is made or removed, on the blocked task's board (a task's deletion removes its
--   links through their keys, so these triggers rebuild those boards too).

create function private.board_cache_task_structure() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.refresh_board_cache(array(
    -- A parent changed: the sub-task's own project, which board_cache_tasks leaves alone for it.
    select n.project_id
      from old_rows o
      join new_rows n on n.id = o.id
     where n.parent_id is distinct from o.parent_id
       and (n.project_id, n.number, n.title, n.status_id, n.position, n.priority, n.due_date, n.assignee_id)
           is not distinct from
           (o.project_id, o.number, o.title, o.status_id, o.position, o.priority, o.due_date, o.assignee_id)
    union
    -- A blocker's status changed: the other projects' boards where a task it blocks is drawn.
    select b.project_id
      from old_rows o
      join new_rows n on n.id = o.id
      join public.task_links l on l.from_task_id = n.id and l.workspace_id = n.workspace_id
      join public.tasks b on b.id = l.to_task_id
     where n.status_id is distinct from o.status_id
       and l.kind = 'blocks'
       and b.project_id <> n.project_id));
  return null;
end
$$;

create trigger tasks_board_cache_structure after update on public.tasks
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.board_cache_task_structure();

-- A status's category changed: the boards of the tasks its tasks block (its own board is rebuilt by
-- board_cache_statuses).
create function private.board_cache_status_blockers() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.refresh_board_cache(array(
    select distinct b.project_id
      from old_rows o
      join new_rows n on n.id = o.id
      join public.tasks t on t.status_id = n.id
      join public.task_links l on l.from_task_id = t.id and l.workspace_id = t.workspace_id
      join public.tasks b on b.id = l.to_task_id
     where n.category is distinct from o.category
       and l.kind = 'blocks'
       and b.project_id <> n.project_id));
  return null;
end
$$;

create trigger project_statuses_board_cache_blockers after update on public.project_statuses
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.board_cache_status_blockers();

-- A `blocks` link made or removed: the blocked task's board.
create function private.board_cache_task_links() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Each statement names only its own trigger's rows: the other transition table does not exist.
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t
       where t.id = any (array(select r.to_task_id from new_rows r where r.kind = 'blocks'))));
  else
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t
       where t.id = any (array(select r.to_task_id from old_rows r where r.kind = 'blocks'))));
  end if;
  return null;
end
$$;

create trigger task_links_board_cache_insert after insert on public.task_links
  referencing new table as new_rows
  for each statement execute function private.board_cache_task_links();
create trigger task_links_board_cache_delete after delete on public.task_links
  referencing old table as old_rows
  for each statement execute function private.board_cache_task_links();

revoke execute on function private.board_cache_task_structure(), private.board_cache_status_blockers(),
  private.board_cache_task_links()
  from public, anon, authenticated;

-- Every kept board again, in its new shape (the cards carry their sub-tasks and blocked mark).
select private.refresh_board_cache(array(select p.id from public.projects p));
