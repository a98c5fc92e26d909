-- import_tasks inserts up to 5,000 tasks in one statement, inside the API's 8 s statement timeout.
-- The per-row triggers took most of that time (5,000 tasks: 7.5 s on a quiet 2-core machine), so an
-- import writes what they write for the whole statement at once instead:
--
-- * the activity log's `task_created` entries, and each task's `imported` history entry, and the
--   `label_added` entries of its labels: one INSERT … SELECT each from the statement's transition
--   table, the same entries as before;
-- * An import notifies nobody and makes nobody watch: a file of 5,000 tasks is not 5,000 things to
--   tell their assignees, and the importer would otherwise watch every one of them.
--
-- import_tasks says it is importing in the transaction-local setting crewboard.import_source
-- (20261201400100_import_tasks.sql); every other insert goes through the per-row triggers as before.

drop trigger tasks_activity on public.tasks;
create trigger tasks_activity
  after delete or update of status_id, assignee_id on public.tasks
  for each row execute function public.record_activity();
create trigger tasks_activity_insert
  after insert on public.tasks
  for each row
  when (coalesce(current_setting('crewboard.import_source', true), '') = '')
  execute function public.record_activity();

drop trigger tasks_history on public.tasks;
create trigger tasks_history
  after update of title, status_id, assignee_id, priority, due_date on public.tasks
  for each row execute function private.task_history_of_tasks();
create trigger tasks_history_insert
  after insert on public.tasks
  for each row
  when (coalesce(current_setting('crewboard.import_source', true), '') = '')
  execute function private.task_history_of_tasks();

drop trigger task_labels_history on public.task_labels;
create trigger task_labels_history
  after delete on public.task_labels
  for each row execute function private.task_history_of_task_labels();
create trigger task_labels_history_insert
  after insert on public.task_labels
  for each row
  when (coalesce(current_setting('crewboard.import_source', true), '') = '')
  execute function private.task_history_of_task_labels();

create function private.record_imported_activity() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(current_setting('crewboard.import_source', true), '') <> '' then
    insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
    select n.workspace_id, n.project_id, n.id, (select auth.uid()), 'task_created',
           jsonb_build_object('number', n.number, 'title', n.title)
      from new_rows n
     order by n.number;
    insert into public.task_history (workspace_id, task_id, actor_id, kind, data)
    select n.workspace_id, n.id, (select u.id from auth.users u where u.id = (select auth.uid())),
           'imported', jsonb_build_object('source', current_setting('crewboard.import_source', true))
      from new_rows n
     order by n.number;
  end if;
  return null;
end
$$;

revoke execute on function private.record_imported_activity() from public, anon, authenticated;

-- The labels an import gives its tasks, in the history of each (as task_history_of_task_labels).
create function private.record_imported_labels() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(current_setting('crewboard.import_source', true), '') <> '' then
    insert into public.task_history (workspace_id, task_id, actor_id, kind, data)
    select n.workspace_id, n.task_id, (select u.id from auth.users u where u.id = (select auth.uid())),
           'label_added', jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color)
      from new_rows n
      join public.labels l on l.id = n.label_id
      join public.tasks t on t.id = n.task_id;
  end if;
  return null;
end
$$;

revoke execute on function private.record_imported_labels() from public, anon, authenticated;

create trigger task_labels_history_imported
  after insert on public.task_labels
  referencing new table as new_rows
  for each statement execute function private.record_imported_labels();

create trigger tasks_activity_imported
  after insert on public.tasks
  referencing new table as new_rows
  for each statement execute function private.record_imported_activity();

drop trigger tasks_notify_insert on public.tasks;
create trigger tasks_notify_insert
  after insert on public.tasks
  for each row
  when (coalesce(current_setting('crewboard.import_source', true), '') = '')
  execute function private.notify_of_new_task();
