-- Changing a project's statuses beyond a plain update: deleting one that holds tasks (they move to
-- a named status of the same project, in the same transaction), and reordering (one step up or
-- down, or to a place in the list, as a drag drops it). Both run as the caller: reading the statuses
-- is RLS's (members), changing them is for the workspace's admins.

-- Deletes a status. Its tasks, if it holds any, go to `move_to` (a status of the same project), last
-- in that column in their order; without one the delete is refused. A project keeps a completed status
-- (project_statuses_keep_completed refuses deleting the last one).
create function public.delete_project_status(status_id uuid, move_to uuid default null) returns void
language plpgsql
set search_path = ''
as $$
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
$$;

revoke execute on function public.delete_project_status(uuid, uuid) from public, anon;
grant execute on function public.delete_project_status(uuid, uuid) to authenticated;

-- Moves a status one step (`direction` 'up' or 'down') or to `to_index` (0 is first) in its
-- project's order; a place past either end is that end. Positions are written again 1024 apart.
create function public.move_project_status(
  status_id uuid,
  direction text default null,
  to_index integer default null
) returns void
language plpgsql
set search_path = ''
as $$
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
$$;

revoke execute on function public.move_project_status(uuid, text, integer) from public, anon;
grant execute on function public.move_project_status(uuid, text, integer) to authenticated;
