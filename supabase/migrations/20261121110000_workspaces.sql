-- Workspaces and their members, with roles. Every rule of SPEC section 6 that concerns them is
-- enforced here: RLS policies over a few security-definer helpers, and functions for what must be atomic.

-- Ordered: comparisons such as role >= 'admin' read as "at least admin".
create type public.workspace_role as enum ('viewer', 'member', 'admin', 'owner');

create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 60),
  slug text not null
    check (slug ~ '^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$')
    check (slug not in ('new', 'settings', 'members', 'search', 'invite', 'account', 'admin', 'api', 'w', 'p', 't')),
  is_personal boolean not null default false,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint workspaces_slug_key unique (slug)
);

create index workspaces_created_by_idx on public.workspaces (created_by);

create table public.workspace_members (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.workspace_role not null,
  created_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);

create index workspace_members_user_id_idx on public.workspace_members (user_id);
-- At most one owner per workspace; the functions below keep it at exactly one.
create unique index workspace_members_one_owner on public.workspace_members (workspace_id) where role = 'owner';

create trigger workspaces_touch_updated_at
  before update on public.workspaces
  for each row execute function public.touch_updated_at();

-- Helpers policies call. Security definer so that a policy on workspace_members can read
-- workspace_members without recursing into its own policy.

create function public.workspace_role_of(ws uuid) returns public.workspace_role
language sql
stable
security definer
set search_path = ''
as $$
  select m.role from public.workspace_members m
   where m.workspace_id = ws and m.user_id = (select auth.uid())
$$;

create function public.is_member(ws uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
     where m.workspace_id = ws and m.user_id = (select auth.uid())
  )
$$;

create function public.has_role(ws uuid, at_least public.workspace_role) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.workspace_role_of(ws) >= at_least, false)
$$;

create function public.shares_workspace_with(other uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
      from public.workspace_members mine
      join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
     where mine.user_id = (select auth.uid()) and theirs.user_id = other
  )
$$;

revoke execute on function public.workspace_role_of(uuid), public.is_member(uuid),
  public.has_role(uuid, public.workspace_role), public.shares_workspace_with(uuid) from public, anon;
grant execute on function public.workspace_role_of(uuid), public.is_member(uuid),
  public.has_role(uuid, public.workspace_role), public.shares_workspace_with(uuid) to authenticated;

-- workspaces ----------------------------------------------------------------------------------------
alter table public.workspaces enable row level security;

create policy "members read their workspaces" on public.workspaces
  for select to authenticated using ((select public.is_member(id)));

create policy "admins rename and re-slug" on public.workspaces
  for update to authenticated
  using ((select public.has_role(id, 'admin')))
  with check ((select public.has_role(id, 'admin')));

create policy "owners delete shared workspaces" on public.workspaces
  for delete to authenticated
  using ((select public.has_role(id, 'owner')) and not is_personal);

-- Rows are made by create_workspace(); only the name and the slug ever change.
revoke insert, update, truncate on public.workspaces from anon, authenticated;
revoke select, delete on public.workspaces from anon;
grant update (name, slug) on public.workspaces to authenticated;

-- workspace_members ----------------------------------------------------------------------------------
alter table public.workspace_members enable row level security;

create policy "members see who else is in" on public.workspace_members
  for select to authenticated using ((select public.is_member(workspace_id)));

-- Admins change roles below admin; the owner also makes and unmakes admins. Nobody changes their own
-- role or the owner's (ownership moves only through transfer_ownership()).
create policy "roles change below the changer" on public.workspace_members
  for update to authenticated
  using (
    user_id <> (select auth.uid())
    and (
      ((select public.has_role(workspace_id, 'owner')) and role <> 'owner')
      or ((select public.has_role(workspace_id, 'admin')) and role in ('viewer', 'member'))
    )
  )
  with check (
    ((select public.has_role(workspace_id, 'owner')) and role <> 'owner')
    or ((select public.has_role(workspace_id, 'admin')) and role in ('viewer', 'member'))
  );

-- Removing someone below your own role, or leaving (never as the owner: transfer ownership first).
create policy "members are removed below the remover, or leave" on public.workspace_members
  for delete to authenticated
  using (
    (
      user_id <> (select auth.uid())
      and (
        ((select public.has_role(workspace_id, 'owner')) and role <> 'owner')
        or ((select public.has_role(workspace_id, 'admin')) and role in ('viewer', 'member'))
      )
    )
    or (user_id = (select auth.uid()) and role <> 'owner')
  );

-- Rows are made by create_workspace() and accept_invitation(); only the role ever changes.
revoke insert, update, truncate on public.workspace_members from anon, authenticated;
revoke select, delete on public.workspace_members from anon;
grant update (role) on public.workspace_members to authenticated;

-- A workspace holds at most 100 members (SPEC section 9).
create function public.limit_workspace_members() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select count(*) from public.workspace_members where workspace_id = new.workspace_id) >= 100 then
    raise exception 'A workspace can have at most 100 members.' using errcode = 'check_violation';
  end if;
  return new;
end
$$;

create trigger workspace_members_limit
  before insert on public.workspace_members
  for each row execute function public.limit_workspace_members();

-- Profiles become visible to the people one works with.
create policy "people read the profiles of fellow members" on public.profiles
  for select to authenticated using ((select public.shares_workspace_with(id)));

-- create_workspace: the workspace and its owner in one step ------------------------------------------
create function public.create_workspace(name text, slug text) returns public.workspaces
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  created public.workspaces;
begin
  if uid is null then
    raise exception 'Sign in to create a workspace.' using errcode = 'insufficient_privilege';
  end if;
  insert into public.workspaces (name, slug, created_by)
  values (btrim(create_workspace.name), lower(btrim(create_workspace.slug)), uid)
  returning * into created;
  insert into public.workspace_members (workspace_id, user_id, role) values (created.id, uid, 'owner');
  return created;
end
$$;

revoke execute on function public.create_workspace(text, text) from public, anon;
grant execute on function public.create_workspace(text, text) to authenticated;

-- transfer_ownership: the owner hands the workspace to another member and becomes an admin ---------
create function public.transfer_ownership(ws uuid, new_owner uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
begin
  if not public.has_role(ws, 'owner') then
    raise exception 'Only the owner can transfer ownership.' using errcode = 'insufficient_privilege';
  end if;
  if new_owner = uid or not exists (
    select 1 from public.workspace_members where workspace_id = ws and user_id = new_owner
  ) then
    raise exception 'The new owner must be another member of the workspace.' using errcode = 'check_violation';
  end if;
  if (select is_personal from public.workspaces where id = ws) then
    raise exception 'A personal workspace cannot change hands.' using errcode = 'check_violation';
  end if;
  update public.workspace_members set role = 'admin' where workspace_id = ws and user_id = uid;
  update public.workspace_members set role = 'owner' where workspace_id = ws and user_id = new_owner;
end
$$;

revoke execute on function public.transfer_ownership(uuid, uuid) from public, anon;
grant execute on function public.transfer_ownership(uuid, uuid) to authenticated;

-- A personal workspace for every new account ---------------------------------------------------------
create function public.create_personal_workspace() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  base text := left(
    coalesce(nullif(trim(both '-' from regexp_replace(lower(split_part(coalesce(new.email, ''), '@', 1)), '[^a-z0-9]+', '-', 'g')), ''), 'me'),
    30
  );
  ws uuid;
begin
  insert into public.workspaces (name, slug, is_personal, created_by)
  values ('Personal', base || '-' || substr(replace(new.id::text, '-', ''), 1, 8), true, new.id)
  returning id into ws;
  insert into public.workspace_members (workspace_id, user_id, role) values (ws, new.id, 'owner');
  return new;
end
$$;

revoke execute on function public.create_personal_workspace() from public, anon, authenticated;

create trigger on_auth_user_created_workspace
  after insert on auth.users
  for each row execute function public.create_personal_workspace();

-- ...and it goes with the account (shared workspaces stay with their other members).
create function public.delete_personal_workspace() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.workspaces where created_by = old.id and is_personal;
  return old;
end
$$;

revoke execute on function public.delete_personal_workspace() from public, anon, authenticated;

create trigger on_auth_user_deleted_workspace
  before delete on auth.users
  for each row execute function public.delete_personal_workspace();
