-- The helpers every policy calls, in PL/pgSQL instead of SQL, with the same bodies.
--
-- A SQL function that cannot be inlined (these cannot: security definer, `set search_path`) has its
-- query parsed and planned again on every call, since PostgreSQL 17 keeps a SQL function's plan only
-- for the statement that called it. PL/pgSQL keeps its plans for the session. A policy calls them
-- once per statement, so a page saves a little; realtime's probe runs one statement per watcher per
-- change, and 50 watchers of a board cost 23 ms per change before, 9 ms after (measured on this
-- machine, bench `npm run bench -- realtime`).
--
-- Same arguments, results, volatility, owner and grants: `create or replace` keeps the privileges.

create or replace function public.archived_project_ids() returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select p.id from public.projects p
     where p.archived_at is not null
       and p.workspace_id in (select public.my_workspace_ids());
end
$$;

create or replace function public.attachment_folder_ok(object_name text, at_least public.workspace_role) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.tasks t
       where t.workspace_id::text = (storage.foldername(object_name))[1]
         and t.id::text = (storage.foldername(object_name))[2]
         and t.workspace_id in (select public.my_workspace_ids(at_least))
    )
  );
end
$$;

create or replace function public.fellow_member_ids() returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select distinct theirs.user_id
      from public.workspace_members mine
      join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
     where mine.user_id = (select auth.uid()) and public.mfa_satisfied();
end
$$;

create or replace function public.has_role(ws uuid, at_least public.workspace_role) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(public.workspace_role_of(ws) >= at_least, false)
  );
end
$$;

create or replace function public.is_member(ws uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select public.workspace_role_of(ws) is not null
  );
end
$$;

create or replace function public.may_join_board_channel(topic text) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.projects p
       where 'board:' || p.id::text = topic
         and p.workspace_id in (select public.my_workspace_ids())
    )
  );
end
$$;

create or replace function public.mfa_satisfied() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(auth.jwt() ->> 'aal', '') = 'aal2'
        or not exists (
          select 1 from auth.mfa_factors f
           where f.user_id = (select auth.uid()) and f.status = 'verified'
        )
  );
end
$$;

create or replace function public.my_workspace_ids(at_least public.workspace_role DEFAULT 'viewer') returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select m.workspace_id from public.workspace_members m
     where m.user_id = (select auth.uid()) and m.role >= at_least and public.mfa_satisfied();
end
$$;

create or replace function public.project_is_active(project uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select exists (select 1 from public.projects p where p.id = project and p.archived_at is null)
  );
end
$$;

create or replace function public.session_is_active() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1
        from auth.sessions s
       where s.id = nullif(auth.jwt() ->> 'session_id', '')::uuid
         and s.user_id = auth.uid()
         and (s.not_after is null or s.not_after > now())
    )
  );
end
$$;

create or replace function public.session_status() returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select case
      when not exists (
        select 1
          from auth.sessions s
         where s.id = nullif(auth.jwt() ->> 'session_id', '')::uuid
           and s.user_id = auth.uid()
           and (s.not_after is null or s.not_after > now())
      ) then 'ended'
      when not public.mfa_satisfied() then 'mfa_required'
      else 'active'
    end
  );
end
$$;

create or replace function public.shares_workspace_with(other uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select public.mfa_satisfied() and exists (
      select 1
        from public.workspace_members mine
        join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
       where mine.user_id = (select auth.uid()) and theirs.user_id = other
    )
  );
end
$$;

create or replace function public.task_is_writable(task uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.tasks t join public.projects p on p.id = t.project_id
       where t.id = task and p.archived_at is null
    )
  );
end
$$;

create or replace function public.workspace_role_of(ws uuid) returns public.workspace_role
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select m.role from public.workspace_members m
     where m.workspace_id = ws and m.user_id = (select auth.uid()) and public.mfa_satisfied()
  );
end
$$;
