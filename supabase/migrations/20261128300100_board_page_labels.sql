-- board_page with labels (after board_content, the migration before): it answers the workspace's
-- labels too (the filter's choices), a board filtered by labels is built afresh, and the kept boards
-- follow labels put on tasks, taken off, renamed, recoloured and deleted.

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
     and coalesce(board_page.filters -> 'label', '[]'::jsonb) = '[]'::jsonb
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
    -- The workspace's labels by name: the label filter's choices.
    'labels', (
      select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color)
                               order by lower(l.name), l.id), '[]'::json)
        from public.labels l
       where l.workspace_id = board_page.ws_id
    ),
    'project', parts.project,
    'people', parts.people,
    'columns', parts.columns
  );
end
$$;

-- Kept boards: a label put on a task or taken off changes its card (a label's deletion takes it off
-- every task through task_labels' foreign key, so these triggers rebuild those boards too).
create trigger task_labels_board_cache_insert after insert on public.task_labels
  referencing new table as new_rows
  for each statement execute function private.board_cache_task_children();
create trigger task_labels_board_cache_delete after delete on public.task_labels
  referencing old table as old_rows
  for each statement execute function private.board_cache_task_children();

-- Kept boards: a label renamed or recoloured changes every card that carries it.
create function private.board_cache_labels() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.refresh_board_cache(array(
    select distinct t.project_id
      from public.task_labels tl
      join public.tasks t on t.id = tl.task_id
     where tl.label_id = any (array(
             select n.id
               from old_rows o
               join new_rows n on n.id = o.id
              where (n.name, n.color) is distinct from (o.name, o.color)))));
  return null;
end
$$;

revoke execute on function private.board_cache_labels() from public, anon, authenticated;

create trigger labels_board_cache_update after update on public.labels
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.board_cache_labels();

-- Every kept board again, in its new shape (the cards carry their labels).
select private.refresh_board_cache(array(select p.id from public.projects p));
