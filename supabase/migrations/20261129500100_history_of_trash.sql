-- The task's history says when it went to the trash and when it came back, and who did it: `deleted`
-- and `restored` entries (public.task_history), written as the task's other changes are, by a
-- trigger on the column trash_task and restore_task set. A trashed task's history is hidden with it,
-- so `deleted` shows once the task is restored, next to its `restored`.
create function private.task_history_of_trash() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.record_task_history(new.workspace_id, new.id,
    case when new.deleted_at is null then 'restored' else 'deleted' end, '{}');
  return new;
end
$$;

revoke execute on function private.task_history_of_trash() from public, anon, authenticated;

create trigger tasks_history_trash
  after update of deleted_at on public.tasks
  for each row
  when (old.deleted_at is distinct from new.deleted_at)
  execute function private.task_history_of_trash();
