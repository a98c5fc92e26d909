-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.import_tasks(uuid).

CREATE OR REPLACE FUNCTION public.import_tasks(import_id uuid)
 RETURNS TABLE(created integer, first_number integer, last_number integer)
 LANGUAGE plpgsql
 SET search_path TO ''
 SET statement_timeout TO '30s'
AS $function$
declare
  staged public.task_imports;
  bad record;
  made integer;
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

  select e.n, coalesce(e.t ->> 'ref', e.t ->> 'title') as ref,
         case
           when char_length(btrim(coalesce(e.t ->> 'title', ''))) not between 1 and 200
             then 'the title must be 1 to 200 characters'
           when char_length(coalesce(e.t ->> 'description', '')) > 20000
             then 'the description is longer than 20,000 characters'
           when coalesce(e.t ->> 'priority', 'none') <> all (enum_range(null::public.task_priority)::text[])
             then format('invalid input value for enum task_priority: "%s"', e.t ->> 'priority')
           when e.t ->> 'due_date' is not null and not public.text_is_date(e.t ->> 'due_date')
             then 'the due date is not a date'
           when e.t ->> 'assignee_id' is not null and not public.text_is_uuid(e.t ->> 'assignee_id')
             then 'the assignee is not a person'
         end as reason
    into bad
    from jsonb_array_elements(staged.payload -> 'tasks') with ordinality as e(t, n)
   where char_length(btrim(coalesce(e.t ->> 'title', ''))) not between 1 and 200
      or char_length(coalesce(e.t ->> 'description', '')) > 20000
      or coalesce(e.t ->> 'priority', 'none') <> all (enum_range(null::public.task_priority)::text[])
      or (e.t ->> 'due_date' is not null and not public.text_is_date(e.t ->> 'due_date'))
      or (e.t ->> 'assignee_id' is not null and not public.text_is_uuid(e.t ->> 'assignee_id'))
   order by e.n
   limit 1;
  if bad.n is not null then
    raise exception 'Task % (%): %', bad.n, bad.ref, bad.reason using errcode = 'check_violation';
  end if;

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
  -- Each row's client key is made from the import and its place in the file, so the statements
  -- after this one find the task a row became.
  with made_tasks as (
    insert into public.tasks (workspace_id, project_id, title, description, priority, assignee_id,
                              due_date, status_id, client_key)
    select staged.workspace_id, staged.project_id, e.t ->> 'title', coalesce(e.t ->> 'description', ''),
           coalesce(e.t ->> 'priority', 'none')::public.task_priority,
           (e.t ->> 'assignee_id')::uuid,
           (e.t ->> 'due_date')::date,
           -- No status of that name (renamed since the preview): the project's default.
           (select s.id from public.project_statuses s
             where s.project_id = staged.project_id and lower(s.name) = lower(e.t ->> 'status')),
           md5(staged.id::text || ':' || e.n)::uuid
      from jsonb_array_elements(staged.payload -> 'tasks') with ordinality as e(t, n)
     order by e.n
    returning number
  )
  select count(*)::integer, min(number), max(number) into made, first_made, last_made from made_tasks;

  insert into public.task_labels (task_id, label_id, workspace_id)
  select distinct t.id, l.id, staged.workspace_id
    from jsonb_array_elements(staged.payload -> 'tasks') with ordinality as e(t, n)
    join public.tasks t on t.created_by = (select auth.uid())
                       and t.client_key = md5(staged.id::text || ':' || e.n)::uuid
    cross join lateral jsonb_array_elements_text(coalesce(e.t -> 'labels', '[]')) as names(name)
    join public.labels l on l.workspace_id = staged.workspace_id and lower(l.name) = lower(names.name);
  insert into public.comments (workspace_id, task_id, body)
  select staged.workspace_id, t.id, c.body
    from jsonb_array_elements(staged.payload -> 'tasks') with ordinality as e(t, n)
    join public.tasks t on t.created_by = (select auth.uid())
                       and t.client_key = md5(staged.id::text || ':' || e.n)::uuid
    cross join lateral jsonb_array_elements_text(coalesce(e.t -> 'comments', '[]')) with ordinality as c(body, i)
   order by e.n, c.i;
  perform set_config('crewboard.import_source', '', true);

  delete from public.task_imports i where i.id = staged.id;
  return query select made, first_made, last_made;
end
$function$;
grant execute on function public.import_tasks(uuid) to authenticated, service_role;
