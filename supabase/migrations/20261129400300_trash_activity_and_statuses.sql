-- The trash, third step. The activity log no longer shows what happened to a task while it is in the
-- trash (its entries come back with it). And a status can still be deleted when trashed tasks hold
-- it: delete_project_status moves the tasks its caller sees (none of the trashed ones), so those
-- move first, here, to the project's first other status of the same category (else its first
-- other status), where a restore then puts them.

drop policy "members read activity" on public.activity;
create policy "members read activity" on public.activity
  for select
  to authenticated
  using (
    workspace_id in (select public.my_workspace_ids())
    and (task_id is null or not task_id in (select public.trashed_task_ids()))
  );

create function private.move_trashed_tasks_off_status() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  destination uuid;
begin
  select s.id into destination
    from public.project_statuses s
   where s.project_id = old.project_id
     and s.id <> old.id
   order by s.category <> old.category, s.position, s.id
   limit 1;
  if destination is not null then
    update public.tasks t
       set status_id = destination
     where t.status_id = old.id
       and t.deleted_at is not null;
  end if;
  return old;
end
$$;

revoke execute on function private.move_trashed_tasks_off_status() from public, anon, authenticated;

create trigger project_statuses_move_trashed_tasks before delete on public.project_statuses
  for each row execute function private.move_trashed_tasks_off_status();
