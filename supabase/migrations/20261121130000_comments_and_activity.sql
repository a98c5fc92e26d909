-- Comments on tasks, and the workspace's activity log (written by triggers only).

create function public.task_is_writable(task uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.tasks t join public.projects p on p.id = t.project_id
     where t.id = task and p.archived_at is null
  )
$$;

revoke execute on function public.task_is_writable(uuid) from public, anon;
grant execute on function public.task_is_writable(uuid) to authenticated;

create table public.comments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  task_id uuid not null,
  author_id uuid default auth.uid() references auth.users (id) on delete set null,
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  edited_at timestamptz,
  constraint comments_task_fkey foreign key (task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade
);

create index comments_task_idx on public.comments (task_id, created_at);
create index comments_workspace_id_idx on public.comments (workspace_id);
create index comments_author_id_idx on public.comments (author_id);

create function public.mark_comment_edited() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  if new.body is distinct from old.body then
    new.edited_at := now();
  end if;
  return new;
end
$$;

revoke execute on function public.mark_comment_edited() from public, anon, authenticated;

create trigger comments_mark_edited
  before update on public.comments
  for each row execute function public.mark_comment_edited();

alter table public.comments enable row level security;

create policy "members read comments" on public.comments
  for select to authenticated using ((select public.is_member(workspace_id)));

create policy "members comment on tasks of active projects" on public.comments
  for insert to authenticated
  with check (
    (select public.has_role(workspace_id, 'member'))
    and author_id = (select auth.uid())
    and (select public.task_is_writable(task_id))
  );

create policy "authors edit their comments" on public.comments
  for update to authenticated
  using (author_id = (select auth.uid()) and (select public.has_role(workspace_id, 'member')))
  with check (author_id = (select auth.uid()) and (select public.has_role(workspace_id, 'member')));

create policy "authors and admins delete comments" on public.comments
  for delete to authenticated
  using (
    (author_id = (select auth.uid()) and (select public.has_role(workspace_id, 'member')))
    or (select public.has_role(workspace_id, 'admin'))
  );

revoke all on public.comments from anon;
revoke insert, update, truncate on public.comments from authenticated;
grant insert (workspace_id, task_id, body, author_id) on public.comments to authenticated;
grant update (body) on public.comments to authenticated;

alter publication supabase_realtime add table public.comments;

-- activity ----------------------------------------------------------------------------------------------
create table public.activity (
  id bigint generated always as identity primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  project_id uuid references public.projects (id) on delete cascade,
  task_id uuid references public.tasks (id) on delete set null,
  actor_id uuid references auth.users (id) on delete set null,
  kind text not null check (kind in (
    'project_created', 'project_archived', 'project_restored', 'task_created', 'task_moved',
    'task_assigned', 'task_deleted', 'comment_added', 'member_joined', 'member_left'
  )),
  data jsonb not null default '{}',
  created_at timestamptz not null default now()
);

create index activity_workspace_recent_idx on public.activity (workspace_id, created_at desc);
create index activity_project_id_idx on public.activity (project_id);
create index activity_task_id_idx on public.activity (task_id);
create index activity_actor_id_idx on public.activity (actor_id);

alter table public.activity enable row level security;

create policy "members read activity" on public.activity
  for select to authenticated using ((select public.is_member(workspace_id)));

revoke all on public.activity from anon;
revoke insert, update, delete, truncate on public.activity from authenticated;

create function public.record_activity() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := (select auth.uid());
begin
  if tg_table_name = 'projects' then
    if tg_op = 'INSERT' then
      insert into public.activity (workspace_id, project_id, actor_id, kind, data)
      values (new.workspace_id, new.id, actor, 'project_created', jsonb_build_object('name', new.name));
    elsif new.archived_at is distinct from old.archived_at then
      insert into public.activity (workspace_id, project_id, actor_id, kind, data)
      values (new.workspace_id, new.id, actor,
              case when new.archived_at is null then 'project_restored' else 'project_archived' end,
              jsonb_build_object('name', new.name));
    end if;
  elsif tg_table_name = 'tasks' then
    if tg_op = 'INSERT' then
      insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
      values (new.workspace_id, new.project_id, new.id, actor, 'task_created',
              jsonb_build_object('number', new.number, 'title', new.title));
    elsif tg_op = 'DELETE' then
      -- Not when the whole project (or workspace) is going: there is no log left to write to.
      if exists (select 1 from public.projects p where p.id = old.project_id) then
        insert into public.activity (workspace_id, project_id, actor_id, kind, data)
        values (old.workspace_id, old.project_id, actor, 'task_deleted',
                jsonb_build_object('number', old.number, 'title', old.title));
      end if;
    else
      if new.status is distinct from old.status then
        insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
        values (new.workspace_id, new.project_id, new.id, actor, 'task_moved',
                jsonb_build_object('number', new.number, 'title', new.title, 'from', old.status, 'to', new.status));
      end if;
      if new.assignee_id is distinct from old.assignee_id then
        insert into public.activity (workspace_id, project_id, task_id, actor_id, kind, data)
        values (new.workspace_id, new.project_id, new.id, actor, 'task_assigned',
                jsonb_build_object('number', new.number, 'title', new.title, 'assignee_id', new.assignee_id));
      end if;
    end if;
  elsif tg_table_name = 'comments' then
    insert into public.activity (workspace_id, task_id, actor_id, kind, data)
    select new.workspace_id, new.task_id, actor, 'comment_added', jsonb_build_object('number', t.number, 'title', t.title)
      from public.tasks t where t.id = new.task_id;
  elsif tg_table_name = 'workspace_members' then
    if tg_op = 'INSERT' then
      insert into public.activity (workspace_id, actor_id, kind, data)
      values (new.workspace_id, new.user_id, 'member_joined', jsonb_build_object('role', new.role));
    elsif exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
      insert into public.activity (workspace_id, actor_id, kind, data)
      values (old.workspace_id, old.user_id, 'member_left', '{}');
    end if;
  end if;
  return coalesce(new, old);
end
$$;

revoke execute on function public.record_activity() from public, anon, authenticated;

create trigger projects_activity after insert or update of archived_at on public.projects
  for each row execute function public.record_activity();
create trigger tasks_activity after insert or update of status, assignee_id or delete on public.tasks
  for each row execute function public.record_activity();
create trigger comments_activity after insert on public.comments
  for each row execute function public.record_activity();
create trigger workspace_members_activity after insert or delete on public.workspace_members
  for each row execute function public.record_activity();
