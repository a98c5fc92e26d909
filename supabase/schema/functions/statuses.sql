-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: a project's statuses: defaults, limits, deleting and reordering them.

CREATE OR REPLACE FUNCTION public.delete_project_status(status_id uuid, move_to uuid DEFAULT NULL::uuid)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  gone public.project_statuses;
  base numeric;
begin
  select * into gone from public.project_statuses s where s.id = delete_project_status.status_id;
  if not found then
    raise exception 'Status not found.' using errcode = 'PT404';
  end if;
  if not public.has_role(gone.workspace_id, 'admin') then
    raise exception 'Only admins change statuses.' using errcode = 'insufficient_privilege';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('project_statuses:' || gone.project_id::text, 0));
  if exists (select 1 from public.tasks t where t.status_id = gone.id) then
    if move_to is null then
      raise exception 'Its tasks need a status to go to (constraint "project_statuses_destination_required").'
        using errcode = 'check_violation', constraint = 'project_statuses_destination_required';
    end if;
    if move_to = gone.id or not exists (
      select 1 from public.project_statuses s where s.id = move_to and s.project_id = gone.project_id
    ) then
      raise exception 'Its tasks can go only to another status of this project (constraint "project_statuses_destination_fkey").'
        using errcode = 'invalid_parameter_value', constraint = 'project_statuses_destination_fkey';
    end if;
    select coalesce(max(t.position), 0) into base from public.tasks t where t.status_id = move_to;
    update public.tasks t
       set status_id = move_to, position = base + o.n * 1024
      from (select t2.id, row_number() over (order by t2.position, t2.id) as n
              from public.tasks t2 where t2.status_id = gone.id) o
     where t.id = o.id;
  end if;
  -- Any task left (the project is archived, so its tasks do not move) keeps the status: the tasks'
  -- key to their status refuses the delete.
  delete from public.project_statuses s where s.id = gone.id;
end
$function$;
grant execute on function public.delete_project_status(uuid,uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.move_project_status(status_id uuid, direction text DEFAULT NULL::text, to_index integer DEFAULT NULL::integer)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  moving public.project_statuses;
  ids uuid[];
  from_index integer;
  target integer;
begin
  select * into moving from public.project_statuses s where s.id = move_project_status.status_id;
  if not found then
    raise exception 'Status not found.' using errcode = 'PT404';
  end if;
  if not public.has_role(moving.workspace_id, 'admin') then
    raise exception 'Only admins change statuses.' using errcode = 'insufficient_privilege';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('project_statuses:' || moving.project_id::text, 0));
  ids := array(select s.id from public.project_statuses s
                where s.project_id = moving.project_id order by s.position, s.id);
  from_index := array_position(ids, moving.id) - 1;
  target := case direction
              when 'up' then from_index - 1
              when 'down' then from_index + 1
              else to_index
            end;
  if target is null then
    raise exception 'Say where the status goes: up, down or a place.' using errcode = 'invalid_parameter_value';
  end if;
  target := greatest(0, least(target, cardinality(ids) - 1));
  if target = from_index then
    return;
  end if;
  ids := array_remove(ids, moving.id);
  ids := ids[1:target] || moving.id || ids[target + 1:];
  update public.project_statuses s
     set position = o.n * 1024
    from unnest(ids) with ordinality as o (id, n)
   where s.id = o.id
     and s.position is distinct from o.n * 1024;
end
$function$;
grant execute on function public.move_project_status(uuid,text,integer) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.project_default_statuses()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into public.project_statuses (workspace_id, project_id, name, category, position)
  values (new.workspace_id, new.id, 'Backlog', 'backlog', 1024),
         (new.workspace_id, new.id, 'To do', 'unstarted', 2048),
         (new.workspace_id, new.id, 'In progress', 'started', 3072),
         (new.workspace_id, new.id, 'Done', 'completed', 4096);
  return null;
end
$function$;
grant execute on function public.project_default_statuses() to service_role;

CREATE OR REPLACE FUNCTION public.project_statuses_before_insert()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if new.workspace_id is null then
    select p.workspace_id into new.workspace_id from public.projects p where p.id = new.project_id;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('project_statuses:' || new.project_id::text, 0));
  if (select count(*) from public.project_statuses s where s.project_id = new.project_id) >= 50 then
    -- Worded as PostgreSQL words a constraint's refusal, so the app reads every refusal one way.
    raise exception 'A project has at most 50 statuses (constraint "project_statuses_limit").'
      using errcode = 'check_violation', constraint = 'project_statuses_limit';
  end if;
  if new.position = 0 then
    select coalesce(max(s.position), 0) + 1024 into new.position
      from public.project_statuses s where s.project_id = new.project_id;
  end if;
  return new;
end
$function$;
grant execute on function public.project_statuses_before_insert() to service_role;

CREATE OR REPLACE FUNCTION public.project_statuses_keep_completed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if exists (select 1 from public.projects p where p.id = old.project_id)
     and not exists (
       select 1 from public.project_statuses s
        where s.project_id = old.project_id and s.category = 'completed') then
    raise exception 'A project keeps a completed status (constraint "project_statuses_keep_completed").'
      using errcode = 'check_violation', constraint = 'project_statuses_keep_completed';
  end if;
  return null;
end
$function$;
grant execute on function public.project_statuses_keep_completed() to service_role;
