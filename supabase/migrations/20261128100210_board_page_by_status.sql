-- board_page, the kept boards and move_task by status id (after board_content, the migration before).
-- A status added, renamed, recategorized, moved or deleted is a change its board shows, kept and live.

-- board_page: as before, but a board asked for with any column's longer window is built afresh
-- (windows are keyed by status id now, so the test is "any key at all").
create or replace function public.board_page(
  workspace_slug text,
  project_key text,
  shown jsonb default '{}'::jsonb,
  filters jsonb default '{}'::jsonb
) returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
-- Labelled with the function's name, so the project's id reads like the arguments: board_page.project_id.
<<board_page>>
declare
  ws_id uuid;
  ws_name text;
  ws_slug text;
  ws_is_personal boolean;
  project_id uuid;
  my_role public.workspace_role;
  status text := public.session_status();
  parts private.board_parts;
begin
  -- The workspace by its slug, and its project by its key, any case (addresses carry it in lower
  -- case), found only for a member of the workspace whose session meets the MFA rule: exactly the
  -- rows RLS shows them (decision 012). For anyone else nothing is found, and nothing below is read.
  select w.id, w.name, w.slug, w.is_personal, p.id, m.role
    into ws_id, ws_name, ws_slug, ws_is_personal, project_id, my_role
    from public.workspaces w
    join public.workspace_members m on m.workspace_id = w.id and m.user_id = auth.uid()
    left join public.projects p on p.workspace_id = w.id and p.key = upper(board_page.project_key)
   where w.slug = board_page.workspace_slug
     and public.mfa_satisfied();
  if status is distinct from 'active' then
    ws_id := null;
    project_id := null;
  end if;

  -- The board at its plain address: no filter set (the date alone is not one), and no column's
  -- window asked for (the app sends only windows longer than the first 50).
  if project_id is not null
     and nullif(board_page.filters ->> 'assignee', '') is null
     and nullif(board_page.filters ->> 'priority', '') is null
     and nullif(board_page.filters ->> 'due', '') is null
     and nullif(btrim(board_page.filters ->> 'q'), '') is null
     and coalesce(board_page.shown, '{}'::jsonb) = '{}'::jsonb then
    select c.project, c.people, c.columns
      into parts
      from private.board_cache c
     where c.project_id = board_page.project_id;
  end if;
  if parts.project is null then
    parts := private.board_content(board_page.ws_id, board_page.project_id, board_page.shown, board_page.filters);
  end if;

  return json_build_object(
    'session', status,
    'membership', case when board_page.ws_id is not null then json_build_object(
      'workspace', json_build_object('id', board_page.ws_id, 'name', board_page.ws_name,
                                     'slug', board_page.ws_slug, 'is_personal', board_page.ws_is_personal),
      'role', board_page.my_role,
      'display_name', (select pr.display_name from public.profiles pr where pr.id = (select auth.uid())),
      'projects', (
        select coalesce(json_agg(json_build_object('id', p.id, 'key', p.key, 'name', p.name, 'archived_at', p.archived_at)), '[]'::json)
          from public.projects p
         where p.workspace_id = board_page.ws_id
      )
    ) end,
    'project', parts.project,
    'people', parts.people,
    'columns', parts.columns
  );
end
$$;

-- Kept boards: a card that changes column is a change the board shows.
create or replace function private.board_cache_tasks() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(select distinct n.project_id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.refresh_board_cache(array(select distinct o.project_id from old_rows o));
  else
    perform private.refresh_board_cache(array(
      select unnest(array[o.project_id, n.project_id])
        from old_rows o
        join new_rows n on n.id = o.id
       where (n.project_id, n.number, n.title, n.status_id, n.position, n.priority, n.due_date, n.assignee_id)
             is distinct from
             (o.project_id, o.number, o.title, o.status_id, o.position, o.priority, o.due_date, o.assignee_id)));
  end if;
  return null;
end
$$;

-- Kept boards: a status added, renamed, recategorized, moved or deleted changes its board's columns.
create function private.board_cache_statuses() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(select distinct n.project_id from new_rows n));
  else
    perform private.refresh_board_cache(array(select distinct o.project_id from old_rows o));
  end if;
  return null;
end
$$;

revoke execute on function private.board_cache_statuses() from public, anon, authenticated;

create trigger project_statuses_board_cache_insert after insert on public.project_statuses
  referencing new table as new_rows
  for each statement execute function private.board_cache_statuses();
create trigger project_statuses_board_cache_update after update on public.project_statuses
  referencing old table as old_rows
  for each statement execute function private.board_cache_statuses();
create trigger project_statuses_board_cache_delete after delete on public.project_statuses
  referencing old table as old_rows
  for each statement execute function private.board_cache_statuses();

-- Moves a task to a status of its own project, between two of that column's cards (or last). A
-- status that is not one of the task's project's (another project's, or none the caller may see) is
-- refused: PT404, answered 404 by PostgREST (the tasks' key to their project's statuses refuses it
-- too, whoever writes the row).
create function public.move_task(
  task_id uuid,
  status_id uuid,
  before_task_id uuid default null,
  after_task_id uuid default null
) returns public.tasks
language plpgsql
set search_path = ''
as $$
declare
  moving public.tasks;
  above numeric;
  below numeric;
  target numeric;
  moved public.tasks;
begin
  select * into moving from public.tasks t where t.id = move_task.task_id;
  if not found then
    -- PTxyz answers HTTP xyz through PostgREST: a task the caller cannot see does not exist for them.
    raise exception 'Task not found.' using errcode = 'PT404';
  end if;
  if not exists (select 1 from public.project_statuses s
                  where s.id = move_task.status_id and s.project_id = moving.project_id) then
    raise exception 'That status is not on this board.' using errcode = 'PT404';
  end if;
  if after_task_id is not null then
    select t.position into above from public.tasks t
     where t.id = after_task_id and t.status_id = move_task.status_id;
    if not found then raise exception 'The task to follow is not in that column.' using errcode = 'check_violation'; end if;
  end if;
  if before_task_id is not null then
    select t.position into below from public.tasks t
     where t.id = before_task_id and t.status_id = move_task.status_id;
    if not found then raise exception 'The task to precede is not in that column.' using errcode = 'check_violation'; end if;
  end if;
  -- One neighbour named: the other is the card on its far side, if any.
  if above is not null and before_task_id is null then
    select min(t.position) into below from public.tasks t
     where t.status_id = move_task.status_id and t.position > above and t.id <> moving.id;
  elsif below is not null and after_task_id is null then
    select max(t.position) into above from public.tasks t
     where t.status_id = move_task.status_id and t.position < below and t.id <> moving.id;
  end if;
  target := case
    when above is not null and below is not null then (above + below) / 2
    when above is not null then above + 1024
    when below is not null then below - 1024
    else (select coalesce(max(t.position), 0) + 1024 from public.tasks t
           where t.status_id = move_task.status_id and t.id <> moving.id)
  end;
  update public.tasks t set status_id = move_task.status_id, position = target
   where t.id = moving.id
   returning * into moved;
  if not found then
    raise exception 'You cannot move this task.' using errcode = 'insufficient_privilege';
  end if;
  return moved;
end
$$;

revoke execute on function public.move_task(uuid, uuid, uuid, uuid) from public, anon;
grant execute on function public.move_task(uuid, uuid, uuid, uuid) to authenticated;

-- A status renamed, recategorized or moved reaches every open board live, as a task's change does.
alter publication supabase_realtime add table public.project_statuses;

-- Every kept board again, in its new shape (the columns carry their statuses).
select private.refresh_board_cache(array(select p.id from public.projects p));
