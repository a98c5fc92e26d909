-- A task's history: what changed on it, who changed it and when, for the task panel's timeline.
-- Written by the database only, as the activity log is: security-definer triggers call
-- private.record_task_history, and no client inserts, updates or deletes a row. Members of the
-- workspace read it. Each entry keeps what it names as it was then (a status's name, an assignee's
-- name, a label's name and colour), so a status renamed or a label deleted later still reads right.
--
-- Kinds and their data:
--   created        {}
--   title          {from, to}                      the titles
--   priority       {from, to}                      the priorities (none, low, medium, high, urgent)
--   due_date       {from, to}                      ISO dates, or null
--   status         {from: {id, name}, to: {id, name}}
--   assignee       {from: {id, name} | null, to: {id, name} | null}
--   label_added    {id, name, color}               and label_removed
--   parent         {from: {id, ref, title} | null, to: {id, ref, title} | null}
--   link_added     {type, other: {id, ref, title}} and link_removed; type is blocks, blocked_by,
--                                                  relates, duplicate_of or duplicated_by
--   deleted        {}                              and restored
--   imported       {source}

create table public.task_history (
  id bigint generated always as identity primary key,
  workspace_id uuid not null,
  task_id uuid not null,
  -- Who did it (auth.uid()); null when the system did, or once their account is gone.
  actor_id uuid references auth.users (id) on delete set null,
  kind text not null,
  data jsonb not null default '{}',
  created_at timestamptz not null default now(),
  constraint task_history_task_fkey foreign key (task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade,
  constraint task_history_kind_check check (kind in (
    'created', 'title', 'status', 'assignee', 'priority', 'due_date', 'label_added', 'label_removed',
    'parent', 'link_added', 'link_removed', 'deleted', 'restored', 'imported'
  ))
);

-- A task's timeline, in order; also the foreign key's index for the task's deletion.
create index task_history_task_idx on public.task_history (task_id, created_at);
create index task_history_workspace_id_idx on public.task_history (workspace_id);
create index task_history_actor_id_idx on public.task_history (actor_id);

alter table public.task_history enable row level security;

create policy "aal2 once a factor is verified" on public.task_history
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "members read the history of tasks" on public.task_history
  for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()));

revoke all on public.task_history from anon;
revoke insert, update, delete, truncate on public.task_history from authenticated;

-- The one way a row is written: by the triggers below, and by other tables' security-definer
-- trigger functions. The actor is whoever is signed in to the request (null for the system).
create function private.record_task_history(ws uuid, task uuid, kind text, data jsonb) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.task_history (workspace_id, task_id, actor_id, kind, data)
  values (ws, task, (select auth.uid()), kind, coalesce(data, '{}'::jsonb))
$$;

revoke execute on function private.record_task_history(uuid, uuid, text, jsonb) from public, anon, authenticated;

-- A task's creation, and each change of its title, status, assignee, priority or due date: one
-- entry a changed field. An update that changes none of them (a move within its column, a new
-- description) writes nothing.
create function private.task_history_of_tasks() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.record_task_history(new.workspace_id, new.id, 'created', '{}');
    return new;
  end if;
  if new.title is distinct from old.title then
    perform private.record_task_history(new.workspace_id, new.id, 'title',
      jsonb_build_object('from', old.title, 'to', new.title));
  end if;
  if new.status_id is distinct from old.status_id then
    perform private.record_task_history(new.workspace_id, new.id, 'status',
      jsonb_build_object(
        'from', (select jsonb_build_object('id', s.id, 'name', s.name)
                   from public.project_statuses s where s.id = old.status_id),
        'to', (select jsonb_build_object('id', s.id, 'name', s.name)
                 from public.project_statuses s where s.id = new.status_id)));
  end if;
  if new.assignee_id is distinct from old.assignee_id then
    perform private.record_task_history(new.workspace_id, new.id, 'assignee',
      jsonb_build_object(
        'from', case when old.assignee_id is not null then jsonb_build_object('id', old.assignee_id, 'name',
                  (select p.display_name from public.profiles p where p.id = old.assignee_id)) end,
        'to', case when new.assignee_id is not null then jsonb_build_object('id', new.assignee_id, 'name',
                (select p.display_name from public.profiles p where p.id = new.assignee_id)) end));
  end if;
  if new.priority is distinct from old.priority then
    perform private.record_task_history(new.workspace_id, new.id, 'priority',
      jsonb_build_object('from', old.priority, 'to', new.priority));
  end if;
  if new.due_date is distinct from old.due_date then
    perform private.record_task_history(new.workspace_id, new.id, 'due_date',
      jsonb_build_object('from', old.due_date, 'to', new.due_date));
  end if;
  return new;
end
$$;

revoke execute on function private.task_history_of_tasks() from public, anon, authenticated;

create trigger tasks_history
  after insert or update of title, status_id, assignee_id, priority, due_date on public.tasks
  for each row execute function private.task_history_of_tasks();

-- A label put on a task or taken off it. Not when the task or the label itself is being deleted
-- (the label's deletion takes it off every task): then there is no task to write to, or the
-- label's removal is the workspace's change rather than the task's.
create function private.task_history_of_task_labels() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed public.task_labels := coalesce(new, old);
  label jsonb;
begin
  select jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color) into label
    from public.labels l where l.id = changed.label_id;
  if label is not null and exists (select 1 from public.tasks t where t.id = changed.task_id) then
    perform private.record_task_history(changed.workspace_id, changed.task_id,
      case when tg_op = 'INSERT' then 'label_added' else 'label_removed' end, label);
  end if;
  return changed;
end
$$;

revoke execute on function private.task_history_of_task_labels() from public, anon, authenticated;

create trigger task_labels_history
  after insert or delete on public.task_labels
  for each row execute function private.task_history_of_task_labels();

-- The task panel hears a new entry as it is written (members only, as the policies say).
alter publication supabase_realtime add table public.task_history;

-- Tasks made before there was a history begin theirs with their creation, by whoever made them.
insert into public.task_history (workspace_id, task_id, actor_id, kind, created_at)
select t.workspace_id, t.id, t.created_by, 'created', t.created_at from public.tasks t;
