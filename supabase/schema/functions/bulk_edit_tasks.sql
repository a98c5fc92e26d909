-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.bulk_edit_tasks(uuid[],jsonb).

CREATE OR REPLACE FUNCTION public.bulk_edit_tasks(task_ids uuid[], changes jsonb)
 RETURNS json
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
<<bulk>>
declare
  ids uuid[] := array(select distinct i.id from unnest(coalesce(bulk_edit_tasks.task_ids, '{}')) as i (id)
                       where i.id is not null);
  new_status uuid;
  new_priority public.task_priority;
  new_assignee uuid;
  set_assignee boolean;
  to_trash boolean;
  editable uuid[];
  bottom numeric;
begin
  if cardinality(bulk.ids) > 500 then
    -- PTxyz answers HTTP xyz through PostgREST.
    raise exception 'Change at most 500 tasks at once.' using errcode = 'PT413';
  end if;
  if jsonb_typeof(bulk_edit_tasks.changes) is distinct from 'object' or bulk_edit_tasks.changes = '{}' then
    raise exception 'Say what to change.' using errcode = 'invalid_parameter_value';
  end if;
  if exists (select 1 from jsonb_object_keys(bulk_edit_tasks.changes) as k (name)
              where k.name not in ('status_id', 'priority', 'assignee_id', 'trash')) then
    raise exception 'Only the status, priority and assignee change, or tasks go to the trash.'
      using errcode = 'invalid_parameter_value';
  end if;
  bulk.to_trash := coalesce(bulk_edit_tasks.changes -> 'trash' = 'true'::jsonb, false);
  if bulk_edit_tasks.changes ? 'trash' and (not bulk.to_trash or (select count(*) from jsonb_object_keys(bulk_edit_tasks.changes)) > 1) then
    raise exception 'Tasks go to the trash with no other change.' using errcode = 'invalid_parameter_value';
  end if;
  -- A malformed id or priority fails the cast (22P02): a bad request, and nothing changes.
  bulk.new_status := (bulk_edit_tasks.changes ->> 'status_id')::uuid;
  bulk.new_priority := (bulk_edit_tasks.changes ->> 'priority')::public.task_priority;
  bulk.set_assignee := bulk_edit_tasks.changes ? 'assignee_id';
  bulk.new_assignee := (bulk_edit_tasks.changes ->> 'assignee_id')::uuid;

  bulk.editable := array(
    select t.id
      from public.tasks t
     where t.id = any (bulk.ids)
       and (bulk.new_status is null
            or exists (select 1 from public.project_statuses s
                        where s.id = bulk.new_status and s.project_id = t.project_id))
       and (not bulk.set_assignee or bulk.new_assignee is null
            or exists (select 1 from public.workspace_members m
                        where m.workspace_id = t.workspace_id and m.user_id = bulk.new_assignee))
       and (not bulk.to_trash or public.has_role(t.workspace_id, 'admin'))
     order by t.id
       for update of t);

  if bulk.to_trash then
    perform public.trash_task(e.id) from unnest(bulk.editable) as e (id);
  else
    if bulk.new_status is not null then
      -- To the bottom of the new column, in the order they stood: as a move with no neighbour named.
      select coalesce(max(t.position), 0) into bulk.bottom
        from public.tasks t
       where t.status_id = bulk.new_status;
      update public.tasks t
         set status_id = bulk.new_status,
             position = bulk.bottom + 1024 * m.n
        from (select t2.id, row_number() over (order by t2.position, t2.id) as n
                from public.tasks t2
               where t2.id = any (bulk.editable)
                 and t2.status_id <> bulk.new_status) m
       where t.id = m.id;
    end if;
    if bulk.new_priority is not null then
      update public.tasks t set priority = bulk.new_priority
       where t.id = any (bulk.editable) and t.priority <> bulk.new_priority;
    end if;
    if bulk.set_assignee then
      update public.tasks t set assignee_id = bulk.new_assignee
       where t.id = any (bulk.editable) and t.assignee_id is distinct from bulk.new_assignee;
    end if;
  end if;

  return json_build_object('changed', cardinality(bulk.editable),
                           'refused', cardinality(bulk.ids) - cardinality(bulk.editable));
end
$function$;
grant execute on function public.bulk_edit_tasks(uuid[],jsonb) to authenticated, service_role;
