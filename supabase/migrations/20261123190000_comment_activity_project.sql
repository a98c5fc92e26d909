-- A comment's activity names its task's project, as every other entry about a task does, so the
-- overview shows it as WEB-12 with a link to the task (it showed "#12", unlinked: without the
-- project there is no key). New entries take the project from their task as they are written; the
-- entries already there are filled in.
create function public.activity_task_project() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.project_id is null and new.task_id is not null then
    select t.project_id into new.project_id from public.tasks t where t.id = new.task_id;
  end if;
  return new;
end
$$;

revoke execute on function public.activity_task_project() from public, anon, authenticated;

create trigger activity_task_project
  before insert on public.activity
  for each row execute function public.activity_task_project();

update public.activity a
   set project_id = t.project_id
  from public.tasks t
 where t.id = a.task_id
   and a.project_id is null;
