-- A task's history (public.task_history, written by private.record_task_history) records its parent
-- and its links too:
--   parent                      {from: {id, ref, title} | null, to: {id, ref, title} | null}
--   link_added / link_removed   {type, other: {id, ref, title}}, on both tasks, each from its own
--                               side: blocks / blocked_by, relates, duplicate_of / duplicated_by
-- `ref` is the task's key (WEB-12), kept as it was then, as the title is.

-- A task as an entry names it; null when there is no such task (any more).
create function private.task_history_ref(task uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', t.id, 'ref', p.key || '-' || t.number, 'title', t.title)
    from public.tasks t
    join public.projects p on p.id = t.project_id
   where t.id = task
$$;

revoke execute on function private.task_history_ref(uuid) from public, anon, authenticated;

-- A task made under a parent, or given, changed or cleared one. Not when the parent's deletion
-- clears it (the parent is gone by then, and its deletion is the parent's own entry): an entry
-- names at least one task.
create function private.task_history_of_parents() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was jsonb := case when tg_op = 'UPDATE' then private.task_history_ref(old.parent_id) end;
  now_is jsonb := private.task_history_ref(new.parent_id);
begin
  if was is not null or now_is is not null then
    perform private.record_task_history(new.workspace_id, new.id, 'parent',
      jsonb_build_object('from', was, 'to', now_is));
  end if;
  return new;
end
$$;

revoke execute on function private.task_history_of_parents() from public, anon, authenticated;

create trigger tasks_parent_history_insert
  after insert on public.tasks
  for each row when (new.parent_id is not null)
  execute function private.task_history_of_parents();
create trigger tasks_parent_history_update
  after update of parent_id on public.tasks
  for each row when (new.parent_id is distinct from old.parent_id)
  execute function private.task_history_of_parents();

-- A link made or removed: an entry on each of its two tasks, saying it from that task's side. Not
-- when one of the tasks is being deleted (its links go with it): then there is no task to write to,
-- or none to name.
create function private.task_history_of_task_links() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed public.task_links := coalesce(new, old);
  kind text := case when tg_op = 'INSERT' then 'link_added' else 'link_removed' end;
  from_task jsonb := private.task_history_ref(changed.from_task_id);
  to_task jsonb := private.task_history_ref(changed.to_task_id);
begin
  if from_task is not null and to_task is not null then
    perform private.record_task_history(changed.workspace_id, changed.from_task_id, kind,
      jsonb_build_object(
        'type', case changed.kind when 'duplicates' then 'duplicate_of' else changed.kind end,
        'other', to_task));
    perform private.record_task_history(changed.workspace_id, changed.to_task_id, kind,
      jsonb_build_object(
        'type', case changed.kind when 'blocks' then 'blocked_by'
                                  when 'duplicates' then 'duplicated_by'
                                  else changed.kind end,
        'other', from_task));
  end if;
  return changed;
end
$$;

revoke execute on function private.task_history_of_task_links() from public, anon, authenticated;

create trigger task_links_history
  after insert or delete on public.task_links
  for each row execute function private.task_history_of_task_links();
