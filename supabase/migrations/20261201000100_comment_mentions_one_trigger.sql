-- A comment's notifications come from one function, whether it is new or edited: a new comment tells
-- the people it mentions and the task's other watchers; an edit tells only the people it newly
-- mentions (the rule of 20261201000000_notification_edits_and_trash.sql, which had a function of its
-- own for it).

create or replace function private.notify_of_comment() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
  mentioned uuid[];
  watchers uuid[] := '{}';
  about jsonb;
begin
  select * into task from public.tasks t where t.id = new.task_id;
  if not found or task.deleted_at is not null then
    return null;
  end if;
  if tg_op = 'INSERT' then
    mentioned := private.mentioned_members(new.workspace_id, new.body);
    watchers := array(select w.user_id from public.task_watchers w where w.task_id = new.task_id);
  else
    mentioned := array(
      select unnest(private.mentioned_members(new.workspace_id, new.body))
      except
      select unnest(private.mentioned_members(new.workspace_id, old.body)));
  end if;
  if cardinality(mentioned) + cardinality(watchers) = 0 then
    return null;
  end if;
  perform private.watch(new.workspace_id, new.task_id, mentioned);
  about := jsonb_build_object('task', private.notification_task(task),
                              'excerpt', private.notification_excerpt(new.body));
  perform private.notify((select auth.uid()), new.workspace_id, new.task_id, new.id,
    mentioned || watchers,
    array_fill('mentioned'::text, array[cardinality(mentioned)])
      || array_fill('commented'::text, array[cardinality(watchers)]),
    array_fill(about, array[cardinality(mentioned) + cardinality(watchers)]));
  return null;
end
$$;

drop trigger comments_notify_edit on public.comments;
create trigger comments_notify_edit
  after update of body on public.comments
  for each row
  when (old.body is distinct from new.body)
  execute function private.notify_of_comment();

drop function private.notify_of_comment_edit();
