-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: the activity log and comments.

CREATE OR REPLACE FUNCTION public.activity_task_project()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if new.project_id is null and new.task_id is not null then
    select t.project_id into new.project_id from public.tasks t where t.id = new.task_id;
  end if;
  return new;
end
$function$;
grant execute on function public.activity_task_project() to service_role;

CREATE OR REPLACE FUNCTION public.mark_comment_edited()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  new.updated_at := now();
  if new.body is distinct from old.body then
    new.edited_at := now();
  end if;
  return new;
end
$function$;
grant execute on function public.mark_comment_edited() to service_role;

CREATE OR REPLACE FUNCTION public.record_activity()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
      if new.status_id is distinct from old.status_id then
        insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
        values (new.workspace_id, new.project_id, new.id, actor, 'task_moved',
                jsonb_build_object('number', new.number, 'title', new.title,
                  'from', (select s.name from public.project_statuses s where s.id = old.status_id),
                  'to', (select s.name from public.project_statuses s where s.id = new.status_id)));
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
$function$;
grant execute on function public.record_activity() to service_role;
