-- Deleting an account. A shared workspace must always keep an owner, so an account that solely owns
-- one (with other members in it) cannot go until ownership is transferred or the workspace deleted.
-- Everything else the user owns goes with the account: their personal workspace and workspaces
-- nobody else is in.

-- The workspaces the caller owns, with how many other people are in each: the app tells which ones
-- stand in the way, and which (with their files) go with the account. Runs as the caller.
create function public.owned_workspaces()
returns table (id uuid, name text, slug text, is_personal boolean, other_members integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select w.id, w.name, w.slug, w.is_personal,
         (select count(*)::integer from public.workspace_members o
           where o.workspace_id = w.id and o.user_id <> (select auth.uid()))
    from public.workspaces w
    join public.workspace_members m on m.workspace_id = w.id
   where m.user_id = (select auth.uid()) and m.role = 'owner'
   order by w.name
$$;

revoke execute on function public.owned_workspaces() from public, anon;
grant execute on function public.owned_workspaces() to authenticated;

-- Replaces the trigger that took only the personal workspace along.
drop trigger on_auth_user_deleted_workspace on auth.users;
drop function public.delete_personal_workspace();

create function public.delete_workspaces_of_deleted_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (
    select 1
      from public.workspace_members m
      join public.workspaces w on w.id = m.workspace_id
     where m.user_id = old.id and m.role = 'owner' and not w.is_personal
       and exists (select 1 from public.workspace_members o where o.workspace_id = w.id and o.user_id <> old.id)
  ) then
    raise exception 'This account owns a shared workspace: transfer its ownership or delete it first.'
      using errcode = 'check_violation';
  end if;
  delete from public.workspaces w
   where (w.created_by = old.id and w.is_personal)
      or w.id in (select m.workspace_id from public.workspace_members m where m.user_id = old.id and m.role = 'owner');
  return old;
end
$$;

revoke execute on function public.delete_workspaces_of_deleted_user() from public, anon, authenticated;

create trigger on_auth_user_deleted_workspaces
  before delete on auth.users
  for each row execute function public.delete_workspaces_of_deleted_user();

-- A member's departure is logged with them as the actor; when it is their account that is going, its
-- row is already gone by the time the membership cascades, and the log entry must not point at it.
create or replace function public.record_activity() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := (select auth.uid());
begin
  if tg_table_name = 'projects' then
    if tg_op = 'INSERT' then
      insert into public.activity (workspace_id, project_id, actor_id, kind, data)
      values (new.workspace_id, new.id, actor, 'project_created', jsonb_build_object('name', new.name));
    elsif new.archived_at is distinct from old.archived_at then
      insert into public.activity (workspace_id, project_id, actor_id, kind, data)
      values (new.workspace_id, new.id, actor,
              case when new.archived_at is null then 'project_restored' else 'project_archived' end,
              jsonb_build_object('name', new.name));
    end if;
  elsif tg_table_name = 'tasks' then
    if tg_op = 'INSERT' then
      insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
      values (new.workspace_id, new.project_id, new.id, actor, 'task_created',
              jsonb_build_object('number', new.number, 'title', new.title));
    elsif tg_op = 'DELETE' then
      -- Not when the whole project (or workspace) is going: there is no log left to write to.
      if exists (select 1 from public.projects p where p.id = old.project_id) then
        insert into public.activity (workspace_id, project_id, actor_id, kind, data)
        values (old.workspace_id, old.project_id, actor, 'task_deleted',
                jsonb_build_object('number', old.number, 'title', old.title));
      end if;
    else
      if new.status is distinct from old.status then
        insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
        values (new.workspace_id, new.project_id, new.id, actor, 'task_moved',
                jsonb_build_object('number', new.number, 'title', new.title, 'from', old.status, 'to', new.status));
      end if;
      if new.assignee_id is distinct from old.assignee_id then
        insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
        values (new.workspace_id, new.project_id, new.id, actor, 'task_assigned',
                jsonb_build_object('number', new.number, 'title', new.title, 'assignee_id', new.assignee_id));
      end if;
    end if;
  elsif tg_table_name = 'comments' then
    insert into public.activity (workspace_id, task_id, actor_id, kind, data)
    select new.workspace_id, new.task_id, actor, 'comment_added', jsonb_build_object('number', t.number, 'title', t.title)
      from public.tasks t where t.id = new.task_id;
  elsif tg_table_name = 'workspace_members' then
    if tg_op = 'INSERT' then
      insert into public.activity (workspace_id, actor_id, kind, data)
      values (new.workspace_id, new.user_id, 'member_joined', jsonb_build_object('role', new.role));
    elsif exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
      -- When the account itself is being deleted its row is already gone: the log keeps no dangling actor.
      insert into public.activity (workspace_id, actor_id, kind, data)
      values (old.workspace_id,
              (select u.id from auth.users u where u.id = old.user_id),
              'member_left',
              case when exists (select 1 from auth.users u where u.id = old.user_id) then '{}'::jsonb
                   else '{"account_deleted": true}'::jsonb end);
    end if;
  end if;
  return coalesce(new, old);
end
$$;
