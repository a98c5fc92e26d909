-- Sub-tasks: a task may have a parent task of its own project, one level deep. The key carries the
-- project, so a task of another project can never be a parent, whoever asks; a trigger keeps the
-- tree one level deep (a sub-task has no sub-tasks, a task with sub-tasks has no parent, no task is
-- its own parent), which also rules out cycles. A parent deleted leaves its sub-tasks as tasks.

alter table public.tasks add column parent_id uuid;

-- The target of the parent key: a task and the project it belongs to.
create unique index tasks_id_project_key on public.tasks (id, project_id);
-- A task's sub-tasks (the panel, the cards' progress, and the key's own checks when a parent goes).
create index tasks_parent_idx on public.tasks (parent_id, project_id);

-- Checked as NOT VALID here, so adding it waits for no scan; the next migration validates it.
alter table public.tasks
  add constraint tasks_parent_fkey foreign key (parent_id, project_id)
  references public.tasks (id, project_id) on delete set null (parent_id) not valid;

-- The rules no key can say. Each refusal names its rule as Postgres names a failing constraint, so
-- the app maps it as it maps the others (check_violation: a 400). The lock makes two changes of one
-- project's parents take turns, so two that are each fine alone (A under B, B under C) cannot make
-- two levels together. Security definer: the checks see every task of the project whatever the
-- caller's policies show.
create function public.tasks_check_parent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent record;
begin
  if new.parent_id = new.id then
    raise exception 'A task cannot be its own parent.'
      using errcode = 'check_violation',
            detail = 'Failing row violates constraint "tasks_parent_not_self".';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('task-parents:' || new.project_id::text, 0));
  select t.project_id, t.parent_id into parent from public.tasks t where t.id = new.parent_id;
  if not found or parent.project_id <> new.project_id then
    raise exception 'The parent must be a task of the same project.'
      using errcode = 'foreign_key_violation',
            detail = 'Failing row violates constraint "tasks_parent_fkey".';
  end if;
  if parent.parent_id is not null then
    raise exception 'That task is a sub-task: a sub-task cannot have sub-tasks of its own.'
      using errcode = 'check_violation',
            detail = 'Failing row violates constraint "tasks_parent_one_level".';
  end if;
  if tg_op = 'UPDATE' and exists (select 1 from public.tasks t where t.parent_id = new.id) then
    raise exception 'This task has sub-tasks: a task with sub-tasks cannot become a sub-task.'
      using errcode = 'check_violation',
            detail = 'Failing row violates constraint "tasks_parent_has_subtasks".';
  end if;
  return new;
end
$$;

revoke execute on function public.tasks_check_parent() from public, anon, authenticated;

create trigger tasks_check_parent
  before insert or update of parent_id on public.tasks
  for each row when (new.parent_id is not null)
  execute function public.tasks_check_parent();

grant insert (parent_id) on public.tasks to authenticated;
grant update (parent_id) on public.tasks to authenticated;
