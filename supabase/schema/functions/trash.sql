-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: the tasks' trash: deleting and restoring tasks, the admins' list, the purge.

CREATE OR REPLACE FUNCTION public.purge_trash(max_tasks integer DEFAULT 500)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  purged integer;
begin
  delete from public.tasks t
   where t.id in (
     select o.id from public.tasks o
      where o.deleted_at < now() - private.trash_keeps()
      order by o.deleted_at
      limit greatest(purge_trash.max_tasks, 1)
   );
  get diagnostics purged = row_count;
  return purged;
end
$function$;
grant execute on function public.purge_trash(integer) to service_role;

CREATE OR REPLACE FUNCTION public.restore_task(task_id uuid)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  found_task public.tasks;
  project public.projects;
begin
  select * into found_task
    from public.tasks t
   where t.id = restore_task.task_id
     and t.workspace_id in (select public.my_workspace_ids())
     for update;
  if found and not public.has_role(found_task.workspace_id, 'admin') then
    raise exception 'Only admins restore tasks.' using errcode = 'insufficient_privilege';
  end if;
  if not found or found_task.deleted_at is null then
    raise exception 'This task is no longer in the trash: it was restored, purged, or deleted with its project.'
      using errcode = 'PT409';
  end if;
  select * into project from public.projects p where p.id = found_task.project_id;
  if project.archived_at is not null then
    raise exception 'Its project % is archived: unarchive the project to restore the task.', project.name
      using errcode = 'PT409';
  end if;
  update public.tasks t set deleted_at = null, deleted_by = null where t.id = found_task.id;
  return json_build_object('id', found_task.id, 'number', found_task.number, 'project_id', found_task.project_id,
                           'project_key', project.key);
end
$function$;
grant execute on function public.restore_task(uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.trash_task(task_id uuid)
 RETURNS json
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  found_task public.tasks;
begin
  -- The caller sees only their workspaces' tasks that are not in the trash already.
  select * into found_task
    from public.tasks t
   where t.id = trash_task.task_id
     and t.deleted_at is null
     and t.workspace_id in (select public.my_workspace_ids())
     for update;
  if not found then
    -- PTxyz answers HTTP xyz through PostgREST.
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not public.has_role(found_task.workspace_id, 'admin') then
    raise exception 'Only admins delete tasks.' using errcode = 'insufficient_privilege';
  end if;
  if exists (select 1 from public.projects p where p.id = found_task.project_id and p.archived_at is not null) then
    raise exception 'This project is archived: its tasks cannot be deleted.' using errcode = 'PT409';
  end if;
  update public.tasks t set deleted_at = now(), deleted_by = auth.uid() where t.id = found_task.id;
  return json_build_object('id', found_task.id, 'number', found_task.number, 'project_id', found_task.project_id);
end
$function$;
grant execute on function public.trash_task(uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.trashed_task_ids()
 RETURNS SETOF uuid
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return query
    select t.id from public.tasks t
     where t.deleted_at is not null
       and t.workspace_id in (select public.my_workspace_ids());
end
$function$;
grant execute on function public.trashed_task_ids() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.trashed_tasks(workspace_id uuid)
 RETURNS TABLE(id uuid, number integer, title text, project_id uuid, project_key text, project_name text, project_archived boolean, deleted_at timestamp with time zone, deleted_by_name text, purge_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not public.has_role(trashed_tasks.workspace_id, 'admin') then
    return;
  end if;
  return query
    select t.id, t.number, t.title, p.id, p.key, p.name, p.archived_at is not null,
           t.deleted_at, pr.display_name, t.deleted_at + private.trash_keeps()
      from public.tasks t
      join public.projects p on p.id = t.project_id
      left join public.profiles pr on pr.id = t.deleted_by
     where t.workspace_id = trashed_tasks.workspace_id
       and t.deleted_at is not null
     order by t.deleted_at desc, t.id;
end
$function$;
grant execute on function public.trashed_tasks(uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION private.move_trashed_tasks_off_status()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.trash_keeps()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$ select interval '30 days' $function$;
grant execute on function private.trash_keeps() to public;
