-- Each project's board, kept as it is first shown (for speed). A board is read far more often
-- than it changes: every member who opens it, and every open board again after each live update.
-- Building it took about 0.8 ms of PostgreSQL's time a call for the demo board's 40 cards, most of
-- the database's share of a board load. Now each change that shows on the board builds it again, in
-- the transaction that made the change, and board_page reads the kept answer by its key.
--
-- What is kept is private.board_content's answer with no filter and every column's first 50 cards:
-- the board at its plain address. A filter or a longer window (`?todo=100`) is built as before.
-- Nothing of the caller is kept: board_page still finds the workspace and project for its caller,
-- checks the session and the MFA rule, and answers the membership part itself (decision 012).
--
-- Kept up to date by statement triggers on whatever the board shows: the tasks' card fields, the
-- comments and attachments counted on cards, the projects' own fields, the workspace's members and
-- their names and pictures. Each rebuild first locks the project's row here, so two transactions
-- that change one board take turns: the later one builds after the earlier has committed, from a
-- snapshot that sees both changes. tests/integration/board-cache.test.ts holds the kept answer to a
-- fresh one after each kind of change, and for two writers at once.

create table private.board_cache (
  project_id uuid primary key references public.projects (id) on delete cascade,
  project json,
  people json,
  columns json
);

comment on table private.board_cache is
  'private.board_content(workspace, project, ''{}'', ''{}'') for each project, kept by triggers; read by board_page.';

-- Builds the boards of these projects again (those that still exist), in the order of their ids so
-- that two transactions never wait on each other's rows crosswise.
create function private.refresh_board_cache(project_ids uuid[]) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  board record;
begin
  for board in
    select p.id, p.workspace_id from public.projects p where p.id = any (project_ids) order by p.id
  loop
    insert into private.board_cache (project_id) values (board.id) on conflict (project_id) do nothing;
    -- Waits for any other transaction rebuilding this board to end; the statement below then takes
    -- a snapshot that sees what it committed.
    perform from private.board_cache c where c.project_id = board.id for update;
    update private.board_cache c
       set (project, people, columns) = (
             select b.project, b.people, b.columns
               from private.board_content(board.workspace_id, board.id, '{}', '{}') b)
     where c.project_id = board.id;
  end loop;
end
$$;

-- Tasks: a card appears, goes, or changes something it shows (its project, number, title, column,
-- place, priority, due date or assignee). Both projects, when a task moves between them.
create function private.board_cache_tasks() returns trigger
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
       where (n.project_id, n.number, n.title, n.status, n.position, n.priority, n.due_date, n.assignee_id)
             is distinct from
             (o.project_id, o.number, o.title, o.status, o.position, o.priority, o.due_date, o.assignee_id)));
  end if;
  return null;
end
$$;

create trigger tasks_board_cache_insert after insert on public.tasks
  referencing new table as new_rows
  for each statement execute function private.board_cache_tasks();
create trigger tasks_board_cache_update after update on public.tasks
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.board_cache_tasks();
create trigger tasks_board_cache_delete after delete on public.tasks
  referencing old table as old_rows
  for each statement execute function private.board_cache_tasks();

-- Comments and attachments: a card's counts. (When a task is deleted, its own trigger rebuilds the
-- board; by then the task is gone, and so is its project here.)
create function private.board_cache_task_children() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Each statement names only its own trigger's rows: the other transition table does not exist.
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t where t.id = any (array(select r.task_id from new_rows r))));
  else
    perform private.refresh_board_cache(array(
      select distinct t.project_id from public.tasks t where t.id = any (array(select r.task_id from old_rows r))));
  end if;
  return null;
end
$$;

create trigger comments_board_cache_insert after insert on public.comments
  referencing new table as new_rows
  for each statement execute function private.board_cache_task_children();
create trigger comments_board_cache_delete after delete on public.comments
  referencing old table as old_rows
  for each statement execute function private.board_cache_task_children();
create trigger attachments_board_cache_insert after insert on public.attachments
  referencing new table as new_rows
  for each statement execute function private.board_cache_task_children();
create trigger attachments_board_cache_delete after delete on public.attachments
  referencing old table as old_rows
  for each statement execute function private.board_cache_task_children();

-- Projects: a new one's board, and the fields the board shows of its own.
create function private.board_cache_projects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(select n.id from new_rows n));
  else
    perform private.refresh_board_cache(array(
      select n.id
        from old_rows o
        join new_rows n on n.id = o.id
       where (n.key, n.name, n.description, n.archived_at) is distinct from
             (o.key, o.name, o.description, o.archived_at)));
  end if;
  return null;
end
$$;

create trigger projects_board_cache_insert after insert on public.projects
  referencing new table as new_rows
  for each statement execute function private.board_cache_projects();
create trigger projects_board_cache_update after update on public.projects
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.board_cache_projects();

-- People: who is in the workspace, and the name and picture each card's assignee and the filter show.
create function private.board_cache_people() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'workspace_members' and tg_op = 'INSERT' then
    perform private.refresh_board_cache(array(
      select p.id from public.projects p
       where p.workspace_id = any (array(select r.workspace_id from new_rows r))));
  elsif tg_table_name = 'workspace_members' then
    perform private.refresh_board_cache(array(
      select p.id from public.projects p
       where p.workspace_id = any (array(select r.workspace_id from old_rows r))));
  else
    perform private.refresh_board_cache(array(
      select p.id
        from public.projects p
        join public.workspace_members m on m.workspace_id = p.workspace_id
       where m.user_id = any (array(
               select n.id
                 from old_rows o
                 join new_rows n on n.id = o.id
                where (n.display_name, n.avatar_path) is distinct from (o.display_name, o.avatar_path)))));
  end if;
  return null;
end
$$;

create trigger workspace_members_board_cache_insert after insert on public.workspace_members
  referencing new table as new_rows
  for each statement execute function private.board_cache_people();
create trigger workspace_members_board_cache_delete after delete on public.workspace_members
  referencing old table as old_rows
  for each statement execute function private.board_cache_people();
create trigger profiles_board_cache_update after update on public.profiles
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.board_cache_people();

revoke execute on function private.refresh_board_cache(uuid[]), private.board_cache_tasks(),
  private.board_cache_task_children(), private.board_cache_projects(), private.board_cache_people()
  from public, anon, authenticated;

-- Every board there is now.
select private.refresh_board_cache(array(select p.id from public.projects p));

-- board_page: the caller found and checked as before; the board read from the cache at its plain
-- address, built by private.board_content otherwise. Same arguments, same answer, same grants.
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
     and not (board_page.shown ?| enum_range(null::public.task_status)::text[]) then
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

revoke execute on function public.board_page(text, text, jsonb, jsonb) from public, anon;
grant execute on function public.board_page(text, text, jsonb, jsonb) to authenticated;
