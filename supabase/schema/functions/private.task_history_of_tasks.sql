-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.task_history_of_tasks().

CREATE OR REPLACE FUNCTION private.task_history_of_tasks()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  imported_from text := nullif(current_setting('crewboard.import_source', true), '');
begin
  if tg_op = 'INSERT' then
    if imported_from is not null then
      perform private.record_task_history(new.workspace_id, new.id, 'imported',
        jsonb_build_object('source', imported_from));
    else
      perform private.record_task_history(new.workspace_id, new.id, 'created', '{}');
    end if;
    return new;
  end if;
  if new.title is distinct from old.title then
    perform private.record_task_history(new.workspace_id, new.id, 'title',
      jsonb_build_object('from', old.title, 'to', new.title));
  end if;
  if new.status_id is distinct from old.status_id then
    perform private.record_task_history(new.workspace_id, new.id, 'status',
      jsonb_build_object(
        'from', (select jsonb_build_object('id', s.id, 'name', s.name)
                   from public.project_statuses s where s.id = old.status_id),
        'to', (select jsonb_build_object('id', s.id, 'name', s.name)
                 from public.project_statuses s where s.id = new.status_id)));
  end if;
  if new.assignee_id is distinct from old.assignee_id then
    perform private.record_task_history(new.workspace_id, new.id, 'assignee',
      jsonb_build_object(
        'from', case when old.assignee_id is not null then jsonb_build_object('id', old.assignee_id, 'name',
                  (select p.display_name from public.profiles p where p.id = old.assignee_id)) end,
        'to', case when new.assignee_id is not null then jsonb_build_object('id', new.assignee_id, 'name',
                (select p.display_name from public.profiles p where p.id = new.assignee_id)) end));
  end if;
  if new.priority is distinct from old.priority then
    perform private.record_task_history(new.workspace_id, new.id, 'priority',
      jsonb_build_object('from', old.priority, 'to', new.priority));
  end if;
  if new.due_date is distinct from old.due_date then
    perform private.record_task_history(new.workspace_id, new.id, 'due_date',
      jsonb_build_object('from', old.due_date, 'to', new.due_date));
  end if;
  return new;
end
$function$;
