-- An import's tasks take their numbers from a counter kept for the statement, not from an update of
-- the project's row per task. import_tasks inserts up to 5,000 tasks in one statement inside the
-- API's 8 s statement timeout; number_new_task's update of projects.next_task_number for each of them
-- was a quarter of that time on a quiet machine (each update of the same row in one transaction
-- walks the versions the earlier ones left), and each update also woke the projects' board-cache
-- trigger. A busy machine took the whole import past the timeout.
--
-- While import_tasks is importing (crewboard.import_source, 20261201400300_imports_set_based.sql):
-- * the first task locks its project's row (a task made meanwhile by someone else waits for the
--   import's commit, as it waited for its single update before) and reads the next number;
-- * each task takes the counter's number and moves it on, in the transaction-local setting
--   crewboard.import_next_number ('<project id>:<number>');
-- * the statement-level trigger that writes the import's activity then writes the project's next
--   number once.
-- Every other insert is numbered as before.

create or replace function public.number_new_task() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  counter text := coalesce(current_setting('crewboard.import_next_number', true), '');
begin
  if coalesce(current_setting('crewboard.import_source', true), '') <> '' then
    if split_part(counter, ':', 1) = new.project_id::text then
      new.number := split_part(counter, ':', 2)::integer;
    else
      select p.next_task_number into new.number
        from public.projects p
       where p.id = new.project_id
         for update;
    end if;
    if new.number is not null then
      perform set_config('crewboard.import_next_number', new.project_id::text || ':' || (new.number + 1), true);
    end if;
  else
    update public.projects set next_task_number = next_task_number + 1
     where id = new.project_id
     returning next_task_number - 1 into new.number;
  end if;
  if new.number is null then
    raise exception 'Project not found.' using errcode = 'foreign_key_violation';
  end if;
  if new.status_id is null then
    select s.id into new.status_id
      from public.project_statuses s
     where s.project_id = new.project_id
     order by s.category <> 'unstarted', s.position, s.id
     limit 1;
  end if;
  select coalesce(max(t.position), 0) + 1024 into new.position
    from public.tasks t where t.status_id = new.status_id;
  return new;
end
$$;

create or replace function private.record_imported_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(current_setting('crewboard.import_source', true), '') <> '' then
    -- The numbers the import's tasks took, spent (number_new_task counted them in a setting).
    update public.projects p
       set next_task_number = greatest(p.next_task_number, m.last + 1)
      from (select n.project_id, max(n.number) as last from new_rows n group by n.project_id) m
     where p.id = m.project_id;
    perform set_config('crewboard.import_next_number', '', true);
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
