-- move_task with one neighbour named lands right next to it.
--
-- A board now shows a window of each column (board_page), so a card dropped below the last card shown
-- names only that card: more cards may follow it in the column. "After X" used to mean "X + 1024",
-- which could pass the hidden cards below X, or tie with the next one; it now means between X and the
-- card that follows X. "Before Y" alone likewise lands between Y and the card that precedes it. With
-- both or neither named, nothing changes.
create or replace function public.move_task(
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
  -- One neighbour named: the other is the card on its far side, if any.
  if above is not null and before_task_id is null then
    select min(t.position) into below from public.tasks t
     where t.project_id = moving.project_id and t.status = move_task.status
       and t.position > above and t.id <> moving.id;
  elsif below is not null and after_task_id is null then
    select max(t.position) into above from public.tasks t
     where t.project_id = moving.project_id and t.status = move_task.status
       and t.position < below and t.id <> moving.id;
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
