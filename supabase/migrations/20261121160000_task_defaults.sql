-- number and position are always computed by the insert trigger (clients may not write them), so they
-- get placeholder defaults: generated types then let inserts leave them out.

alter table public.tasks alter column number set default 0, alter column position set default 0;

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
  select coalesce(max(t.position), 0) + 1024 into new.position
    from public.tasks t where t.project_id = new.project_id and t.status = new.status;
  return new;
end
$$;
