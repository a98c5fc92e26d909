-- Importing a staged file (public.task_imports) into its project, all or nothing: one call, one
-- transaction. Security invoker, so every row is written as the importer and row-level security
-- decides as it does for the board's own forms; the function adds only SPEC's rule that importing
-- is for admins. Tasks get the project's next numbers in the file's order (public.number_new_task),
-- and each one's history begins "imported from CSV" (or Trello) instead of "created".

-- The history trigger of tasks, as before, except that a task inserted by import_tasks begins its
-- history with `imported` {source}. import_tasks says so in a setting local to its transaction.
create or replace function private.task_history_of_tasks() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- Returns how many tasks were created and the first and last of their numbers.
create function public.import_tasks(import_id uuid)
returns table (created integer, first_number integer, last_number integer)
language plpgsql
security invoker
set search_path = ''
as $$
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
$$;

revoke execute on function public.import_tasks(uuid) from public, anon;
grant execute on function public.import_tasks(uuid) to authenticated;

-- Which of the given addresses belong to members of the workspace, for an importer matching a
-- Trello board's members (by email) to people: an admin's question only, answered for the addresses
-- asked about (no list of everyone's address), and only for members (nobody else's account is told).
create function public.members_by_email(workspace_id uuid, emails text[])
returns table (email text, user_id uuid)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.has_role(members_by_email.workspace_id, 'admin') then
    return;
  end if;
  return query
    select lower(u.email)::text, m.user_id
      from public.workspace_members m
      join auth.users u on u.id = m.user_id
     where m.workspace_id = members_by_email.workspace_id
       and lower(u.email) in (select lower(e) from unnest(members_by_email.emails) as e limit 5000);
end
$$;

revoke execute on function public.members_by_email(uuid, text[]) from public, anon;
grant execute on function public.members_by_email(uuid, text[]) to authenticated;
