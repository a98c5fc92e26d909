-- Two gaps in what notifies whom (20261130200000_notification_triggers.sql has the rules):
--
-- * A comment edited to name someone new tells them, as a description edit already does: the people
--   the new text mentions and the old text did not are told `mentioned` and watch the task. Nobody
--   already named hears of it twice, and a trashed task's comments notify nobody.
-- * A notification about a task in the trash is out of sight while the task is there: its recipient
--   reads it (and counts it, and changes it) only while they can read the task, so it comes back with
--   the task when the task is restored. Emails not yet sent leave it out for good: the outbox forgets
--   a task's notifications when the task goes to the trash.

create function private.notify_of_comment_edit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
  mentioned uuid[];
  about jsonb;
begin
  select * into task from public.tasks t where t.id = new.task_id;
  if not found or task.deleted_at is not null then
    return null;
  end if;
  mentioned := array(
    select unnest(private.mentioned_members(new.workspace_id, new.body))
    except
    select unnest(private.mentioned_members(new.workspace_id, old.body)));
  if cardinality(mentioned) = 0 then
    return null;
  end if;
  perform private.watch(new.workspace_id, new.task_id, mentioned);
  about := jsonb_build_object('task', private.notification_task(task),
                              'excerpt', private.notification_excerpt(new.body));
  perform private.notify((select auth.uid()), new.workspace_id, new.task_id, new.id,
    mentioned,
    array_fill('mentioned'::text, array[cardinality(mentioned)]),
    array_fill(about, array[cardinality(mentioned)]));
  return null;
end
$$;

revoke execute on function private.notify_of_comment_edit() from public, anon, authenticated;

create trigger comments_notify_edit
  after update of body on public.comments
  for each row
  when (old.body is distinct from new.body)
  execute function private.notify_of_comment_edit();

-- Readable only with its task: the tasks' own policy hides a task in the trash (and a task of a
-- workspace the reader left), so `exists` here is "the reader can read the task".
drop policy "people read their own notifications" on public.notifications;
create policy "people read their own notifications" on public.notifications
  for select to authenticated
  using (
    recipient_id = (select auth.uid())
    and workspace_id in (select public.my_workspace_ids())
    and (task_id is null or exists (select 1 from public.tasks t where t.id = notifications.task_id))
  );

drop policy "people mark their own notifications" on public.notifications;
create policy "people mark their own notifications" on public.notifications
  for update to authenticated
  using (
    recipient_id = (select auth.uid())
    and workspace_id in (select public.my_workspace_ids())
    and (task_id is null or exists (select 1 from public.tasks t where t.id = notifications.task_id))
  )
  with check (recipient_id = (select auth.uid()));

-- The count the sidebar shows, by the same rule (it runs as its definer, so it says the trash itself).
create or replace function public.my_unread_notifications() returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer
    from (
      select 1
        from public.notifications n
       where n.recipient_id = (select auth.uid())
         and n.read_at is null
         and n.archived_at is null
         and exists (select 1 from public.workspace_members m
                      where m.workspace_id = n.workspace_id and m.user_id = n.recipient_id)
         and not exists (select 1 from public.tasks t
                          where t.id = n.task_id and t.deleted_at is not null)
       limit 100
    ) unread
$$;

-- A task going to the trash takes its notifications out of the emails still to be sent.
create function private.forget_trashed_task_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.notification_outbox o
   using public.notifications n
   where n.id = o.notification_id
     and n.task_id = new.id;
  return null;
end
$$;

revoke execute on function private.forget_trashed_task_emails() from public, anon, authenticated;

create trigger tasks_forget_trashed_emails
  after update of deleted_at on public.tasks
  for each row
  when (old.deleted_at is null and new.deleted_at is not null)
  execute function private.forget_trashed_task_emails();
