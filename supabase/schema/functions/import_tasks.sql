-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.import_tasks(uuid).

CREATE OR REPLACE FUNCTION public.import_tasks(import_id uuid)
 RETURNS TABLE(created integer, first_number integer, last_number integer)
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  staged public.task_imports;
  task jsonb;
  row_at bigint := 0;
  new_task uuid;
  made integer := 0;
  numbered integer;
  first_made integer;
  last_made integer;
begin
  select * into staged from public.task_imports i where i.id = import_tasks.import_id;
  if staged.id is null then
    raise exception 'No such import: it was imported already, or it has expired.'
      using errcode = 'no_data_found';
  end if;
  if not public.has_role(staged.workspace_id, 'admin') then
    raise exception 'Only admins of the workspace import tasks.' using errcode = 'insufficient_privilege';
  end if;
  if staged.created_at < now() - interval '1 day' then
    raise exception 'This import has expired. Upload the file again.' using errcode = 'no_data_found';
  end if;

  -- The statuses and labels the preview said it would create; one made meanwhile is used as it is.
  insert into public.project_statuses (workspace_id, project_id, name, category)
  select staged.workspace_id, staged.project_id, btrim(s ->> 'name'),
         coalesce(s ->> 'category', 'unstarted')::public.status_category
    from jsonb_array_elements(coalesce(staged.payload -> 'statuses', '[]')) with ordinality as n(s, i)
   order by n.i
  on conflict (project_id, lower(name)) do nothing;
  insert into public.labels (workspace_id, name, color)
  select staged.workspace_id, btrim(l ->> 'name'), coalesce(l ->> 'color', 'gray')
    from jsonb_array_elements(coalesce(staged.payload -> 'labels', '[]')) with ordinality as n(l, i)
   order by n.i
  on conflict (workspace_id, lower(name)) do nothing;

  perform set_config('crewboard.import_source', staged.source, true);
  begin
    for task, row_at in
      select t, n from jsonb_array_elements(staged.payload -> 'tasks') with ordinality as e(t, n) order by n
    loop
      insert into public.tasks (workspace_id, project_id, title, description, priority, assignee_id,
                                due_date, status_id)
      values (
        staged.workspace_id, staged.project_id, task ->> 'title', coalesce(task ->> 'description', ''),
        coalesce(task ->> 'priority', 'none')::public.task_priority,
        (task ->> 'assignee_id')::uuid,
        (task ->> 'due_date')::date,
        -- No status of that name (renamed since the preview): the project's default, as for a new task.
        (select s.id from public.project_statuses s
          where s.project_id = staged.project_id and lower(s.name) = lower(task ->> 'status'))
      )
      returning id, number into new_task, numbered;
      insert into public.task_labels (task_id, label_id, workspace_id)
      select new_task, l.id, staged.workspace_id
        from public.labels l
       where l.workspace_id = staged.workspace_id
         and lower(l.name) in (select lower(name) from jsonb_array_elements_text(
               coalesce(task -> 'labels', '[]')) as names(name));
      insert into public.comments (workspace_id, task_id, body)
      select staged.workspace_id, new_task, body
        from jsonb_array_elements_text(coalesce(task -> 'comments', '[]')) with ordinality as c(body, i)
       order by c.i;
      made := made + 1;
      first_made := coalesce(first_made, numbered);
      last_made := numbered;
    end loop;
  exception when others then
    -- Name the row that failed; the whole import is undone with it.
    declare
      state text;
      message text;
    begin
      get stacked diagnostics state = returned_sqlstate, message = message_text;
      raise exception 'Task % (%): %', row_at, coalesce(task ->> 'ref', task ->> 'title'), message
        using errcode = state;
    end;
  end;
  perform set_config('crewboard.import_source', '', true);

  delete from public.task_imports i where i.id = staged.id;
  return query select made, first_made, last_made;
end
$function$;
grant execute on function public.import_tasks(uuid) to authenticated, service_role;
