-- Tasks by status id, second step (after 20261128100000_project_statuses.sql, which filled it in):
-- validate the key and the check in a transaction of their own, where the scan holds a lock that
-- lets reads and writes through, make the column NOT NULL, and drop the old enum column and type.
alter table public.tasks validate constraint tasks_status_fkey;
alter table public.tasks validate constraint tasks_status_not_null;
alter table public.tasks alter column status_id set not null;
alter table public.tasks drop constraint tasks_status_not_null;

-- A column's cards in board order (uuid equality is leakproof, so this serves a read under RLS too),
-- and the index the key's checks use when a status is deleted.
create index tasks_status_order_idx on public.tasks (status_id, position, id);

-- The activity trigger names the columns it watches: the old one goes with it.
drop trigger tasks_activity on public.tasks;
create trigger tasks_activity
  after insert or delete or update of status_id, assignee_id on public.tasks
  for each row execute function public.record_activity();

-- The old move_task takes the enum; the next migration makes the one that takes a status id.
drop function public.move_task(uuid, public.task_status, uuid, uuid);

-- Its index (tasks_overview_idx) goes with it; the next migration makes the overview's again.
-- The app stopped reading and writing the column with this change (nothing else does).
-- squawk-ignore ban-drop-column
alter table public.tasks drop column status;
drop type public.task_status;

grant insert (status_id) on public.tasks to authenticated;
grant update (status_id) on public.tasks to authenticated;

-- A task made without a status goes to its project's first `unstarted` status (else its first), as a
-- task without one went to "To do"; each goes last in its column.
create or replace function public.number_new_task() returns trigger
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

create index tasks_overview_idx on public.tasks (workspace_id, project_id, status_id) include (due_date);
