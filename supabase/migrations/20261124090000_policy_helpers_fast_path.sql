-- The four helpers a page load calls most, with the same answers in fewer executor runs.
--
-- PL/pgSQL evaluates a plain expression (`auth.jwt() ->> 'aal'`, `auth.uid()`) on a fast path, but
-- runs anything holding a subquery (`return (select ...)`, `(select auth.uid())`) as a whole query:
-- executor start-up and shut-down each time. The board's one query calls mfa_satisfied() 23 times
-- and my_workspace_ids() 10 times (one each per table its policies read, counted with
-- track_functions), so those start-ups were about a third of its time in the database. Now each
-- helper runs one query at most, and none when the token's aal settles it:
--
--   mfa_satisfied() alone: 55–59 µs a call before, 32–41 µs after;
--   board_page('northwind', 'web') as Ada: 6.2 ms before, 5.7 ms after (medians of 4 × 300 calls,
--   alternated in one session on a busy machine).
--
-- Same arguments, results, volatility, owner and grants: `create or replace` keeps the privileges.

create or replace function public.mfa_satisfied() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid;
begin
  -- A session that passed the second factor, or an account without a verified one.
  if coalesce(auth.jwt() ->> 'aal', '') = 'aal2' then
    return true;
  end if;
  me := auth.uid();
  return not exists (
    select 1 from auth.mfa_factors f where f.user_id = me and f.status = 'verified'
  );
end
$$;

create or replace function public.my_workspace_ids(at_least public.workspace_role default 'viewer') returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid;
begin
  if not public.mfa_satisfied() then
    return;
  end if;
  me := auth.uid();
  return query
    select m.workspace_id from public.workspace_members m
     where m.user_id = me and m.role >= at_least;
end
$$;

create or replace function public.fellow_member_ids() returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid;
begin
  if not public.mfa_satisfied() then
    return;
  end if;
  me := auth.uid();
  return query
    select distinct theirs.user_id
      from public.workspace_members mine
      join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
     where mine.user_id = me;
end
$$;

create or replace function public.session_status() returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  session uuid := nullif(auth.jwt() ->> 'session_id', '')::uuid;
begin
  if not exists (
    select 1
      from auth.sessions s
     where s.id = session
       and s.user_id = me
       and (s.not_after is null or s.not_after > now())
  ) then
    return 'ended';
  end if;
  if not public.mfa_satisfied() then
    return 'mfa_required';
  end if;
  return 'active';
end
$$;
