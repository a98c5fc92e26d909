-- A task's history names nobody as the actor when the signed-in account is itself being deleted
-- (its tasks are unassigned on the way, after its row is gone), rather than fail the deletion on
-- the entry's foreign key: as the activity log does for a member leaving that way.
create or replace function private.record_task_history(ws uuid, task uuid, kind text, data jsonb) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.task_history (workspace_id, task_id, actor_id, kind, data)
  values (ws, task, (select u.id from auth.users u where u.id = (select auth.uid())), kind,
          coalesce(data, '{}'::jsonb))
$$;
