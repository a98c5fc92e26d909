-- Notifications and watching, written by the database in the same transaction as the change they
-- report (the tables and their kinds are in 20261130100000_notifications.sql):
--
--   assigned            a task's assignee becomes someone (on creation or a change)
--   mentioned           `@name` in a task's description (only people newly named by an edit) or in a
--                       new comment, by the rule of app/utils/markdown-rules.ts (MENTION_IN_TEXT,
--                       mentionNames): members of the task's workspace only
--   commented           a new comment on a task you watch
--   status_changed      a task you watch moves to another status
--   added_to_workspace  someone adds you to a workspace (accepting an invitation: the inviter did)
--
-- Rules every kind keeps (private.notify): never to the person who did it; never to anyone who is
-- not a member of the workspace; at most one notification a person for one change (the first kind
-- the trigger names for them wins: assigned, then mentioned, then commented or status_changed); a
-- kind the person wants neither in the inbox nor by email is not written, and one they want by email
-- only is written already archived (so it never shows in the inbox, and the email sender sees it).
-- Changes made with nobody signed in (the system, a migration, the service role) notify nobody:
-- every notification names someone who did something. A task in the trash notifies nobody.
--
-- Watching: whoever creates a task, its assignee, and everyone mentioned in it or its comments watch
-- it. Leaving a workspace takes a person's notifications and watches there with them.

-- A name folded for mentions: lower case, everything but letters and digits removed (foldName).
create function private.fold_name(name text) returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select regexp_replace(lower(coalesce(name, '')), '[^[:alnum:]]', '', 'g')
$$;

revoke execute on function private.fold_name(text) from public, anon, authenticated;

-- The members of a workspace that `@name`s in `body` mention: `@` not inside a word, then letters,
-- digits, dots, dashes and underscores (MENTION_IN_TEXT); a token names a member when, folded, it
-- equals their whole display name or its first word, folded (mentionNames). However many times and
-- however many names appear, each member is in the answer once; non-members never are.
create function private.mentioned_members(ws uuid, body text) returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct m.user_id), '{}')
    from (
      select distinct private.fold_name(t[1]) as wanted
        from regexp_matches(coalesce(body, ''), '(?<![[:alnum:]_])@([[:alnum:]._-]+)', 'g') as t
    ) tokens
    join public.workspace_members m on m.workspace_id = ws
    join public.profiles p on p.id = m.user_id
   where tokens.wanted <> ''
     and tokens.wanted in (private.fold_name(p.display_name),
                           private.fold_name(substring(p.display_name from '^\s*(\S*)')))
$$;

revoke execute on function private.mentioned_members(uuid, text) from public, anon, authenticated;

-- Writes one change's notifications: candidates[i] is told kinds[i] with details[i]; a person named
-- twice gets the first kind they want (see the rules above). Set-based: one insert for all of them.
create function private.notify(
  actor uuid, ws uuid, task uuid, comment uuid, candidates uuid[], kinds text[], details jsonb[]
) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.notifications
    (recipient_id, workspace_id, task_id, comment_id, actor_id, kind, data, archived_at)
  select chosen.recipient, notify.ws, notify.task, notify.comment,
         (select u.id from auth.users u where u.id = notify.actor), chosen.kind, chosen.data,
         case when not chosen.in_inbox then now() end
    from (
      select distinct on (c.recipient) c.recipient, c.kind, c.data,
             (pref.user_id is null or c.kind = any (pref.inbox_kinds)) as in_inbox
        from unnest(notify.candidates, notify.kinds, notify.details)
               with ordinality as c (recipient, kind, data, n)
        join public.workspace_members m on m.workspace_id = notify.ws and m.user_id = c.recipient
        left join public.notification_preferences pref on pref.user_id = c.recipient
       where notify.actor is not null
         and c.recipient <> notify.actor
         and (pref.user_id is null or c.kind = any (pref.inbox_kinds) or c.kind = any (pref.email_kinds))
       order by c.recipient, c.n
    ) chosen
$$;

revoke execute on function private.notify(uuid, uuid, uuid, uuid, uuid[], text[], jsonb[])
  from public, anon, authenticated;

-- Makes members of the task's workspace watch it (anyone else is left out; nobody twice).
create function private.watch(ws uuid, task uuid, watchers uuid[]) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.task_watchers (task_id, user_id, workspace_id)
  select watch.task, m.user_id, watch.ws
    from public.workspace_members m
   where m.workspace_id = watch.ws
     and m.user_id = any (watch.watchers)
  on conflict do nothing
$$;

revoke execute on function private.watch(uuid, uuid, uuid[]) from public, anon, authenticated;

-- What a notification says about its task: {ref, title}.
create function private.notification_task(task public.tasks) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('ref', p.key || '-' || task.number, 'title', task.title)
    from public.projects p
   where p.id = task.project_id
$$;

revoke execute on function private.notification_task(public.tasks) from public, anon, authenticated;

-- The start of a text, on one line, as an excerpt.
create function private.notification_excerpt(body text) returns text
language sql
immutable
set search_path = ''
as $$
  select left(btrim(regexp_replace(coalesce(body, ''), '\s+', ' ', 'g')), 200)
$$;

revoke execute on function private.notification_excerpt(text) from public, anon, authenticated;

-- A task created: its creator, assignee and the people its description mentions watch it; the
-- assignee is told they were assigned, the people mentioned that they were.
create function private.notify_of_new_task() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  mentioned uuid[];
  about jsonb;
begin
  if new.deleted_at is not null then
    return null;
  end if;
  mentioned := private.mentioned_members(new.workspace_id, new.description);
  perform private.watch(new.workspace_id, new.id, array[new.created_by, new.assignee_id] || mentioned);
  if new.assignee_id is null and cardinality(mentioned) = 0 then
    return null;
  end if;
  about := jsonb_build_object('task', private.notification_task(new));
  perform private.notify((select auth.uid()), new.workspace_id, new.id, null,
    array[new.assignee_id] || mentioned,
    array['assigned'] || array_fill('mentioned'::text, array[cardinality(mentioned)]),
    array[about] || array_fill(
      about || jsonb_build_object('excerpt', private.notification_excerpt(new.description)),
      array[cardinality(mentioned)]));
  return null;
end
$$;

revoke execute on function private.notify_of_new_task() from public, anon, authenticated;

create trigger tasks_notify_insert
  after insert on public.tasks
  for each row execute function private.notify_of_new_task();

-- A task changed: a new assignee is told and watches it; people its description newly mentions are
-- told and watch it; a move to another status tells its watchers.
create function private.notify_of_task_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  assignee uuid;
  mentioned uuid[] := '{}';
  watchers uuid[] := '{}';
  about jsonb;
  moved jsonb;
begin
  if new.deleted_at is not null then
    return null;
  end if;
  if new.assignee_id is distinct from old.assignee_id then
    assignee := new.assignee_id;
  end if;
  if new.description is distinct from old.description then
    mentioned := array(
      select unnest(private.mentioned_members(new.workspace_id, new.description))
      except
      select unnest(private.mentioned_members(new.workspace_id, old.description)));
  end if;
  if new.status_id is distinct from old.status_id then
    watchers := array(select w.user_id from public.task_watchers w where w.task_id = new.id);
  end if;
  if assignee is null and cardinality(mentioned) = 0 and cardinality(watchers) = 0 then
    return null;
  end if;
  perform private.watch(new.workspace_id, new.id, array[assignee] || mentioned);
  about := jsonb_build_object('task', private.notification_task(new));
  moved := about || jsonb_build_object(
    'from', (select s.name from public.project_statuses s where s.id = old.status_id),
    'to', (select s.name from public.project_statuses s where s.id = new.status_id));
  perform private.notify((select auth.uid()), new.workspace_id, new.id, null,
    array[assignee] || mentioned || watchers,
    array['assigned']
      || array_fill('mentioned'::text, array[cardinality(mentioned)])
      || array_fill('status_changed'::text, array[cardinality(watchers)]),
    array[about]
      || array_fill(
           about || jsonb_build_object('excerpt', private.notification_excerpt(new.description)),
           array[cardinality(mentioned)])
      || array_fill(moved, array[cardinality(watchers)]));
  return null;
end
$$;

revoke execute on function private.notify_of_task_change() from public, anon, authenticated;

create trigger tasks_notify_update
  after update of assignee_id, status_id, description on public.tasks
  for each row
  when (old.assignee_id is distinct from new.assignee_id
        or old.status_id is distinct from new.status_id
        or old.description is distinct from new.description)
  execute function private.notify_of_task_change();

-- A new comment: the people it mentions are told so and watch the task; the task's other watchers
-- are told of the comment.
create function private.notify_of_comment() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task public.tasks;
  mentioned uuid[];
  watchers uuid[];
  about jsonb;
begin
  select * into task from public.tasks t where t.id = new.task_id;
  if not found or task.deleted_at is not null then
    return null;
  end if;
  mentioned := private.mentioned_members(new.workspace_id, new.body);
  watchers := array(select w.user_id from public.task_watchers w where w.task_id = new.task_id);
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

revoke execute on function private.notify_of_comment() from public, anon, authenticated;

create trigger comments_notify
  after insert on public.comments
  for each row execute function private.notify_of_comment();

-- Someone added to a workspace by someone else. Accepting an invitation adds you as yourself: then
-- whoever invited you added you.
create function private.notify_of_new_member() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := (select auth.uid());
begin
  if actor is null then
    return null;
  end if;
  if actor = new.user_id then
    select i.invited_by into actor
      from public.invitations i
      join auth.users u on u.id = new.user_id and i.email = lower(u.email)
     where i.workspace_id = new.workspace_id
       and i.revoked_at is null
     order by i.accepted_at is null desc, i.created_at desc
     limit 1;
  end if;
  perform private.notify(actor, new.workspace_id, null, null, array[new.user_id],
    array['added_to_workspace'],
    array[(select jsonb_build_object('workspace', jsonb_build_object('slug', w.slug, 'name', w.name),
                                     'role', new.role)
             from public.workspaces w where w.id = new.workspace_id)]);
  return null;
end
$$;

revoke execute on function private.notify_of_new_member() from public, anon, authenticated;

create trigger workspace_members_notify
  after insert on public.workspace_members
  for each row execute function private.notify_of_new_member();

-- Whoever leaves a workspace (or is removed) takes their notifications and watches there with them.
create function private.forget_former_members() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.notifications n
   using old_rows o
   where n.recipient_id = o.user_id and n.workspace_id = o.workspace_id;
  delete from public.task_watchers w
   using old_rows o
   where w.user_id = o.user_id and w.workspace_id = o.workspace_id;
  return null;
end
$$;

revoke execute on function private.forget_former_members() from public, anon, authenticated;

create trigger workspace_members_forget
  after delete on public.workspace_members
  referencing old table as old_rows
  for each statement execute function private.forget_former_members();

-- Tasks made before there was watching are watched by their creator and their assignee.
insert into public.task_watchers (task_id, user_id, workspace_id)
select t.id, m.user_id, t.workspace_id
  from public.tasks t
  cross join lateral (values (t.created_by), (t.assignee_id)) as who (id)
  join public.workspace_members m on m.workspace_id = t.workspace_id and m.user_id = who.id
on conflict do nothing;
