-- Once someone has a verified authenticator app, a password (or an email code or link) alone is not
-- enough: until their session reaches aal2 they read and write no workspace data, no file and no one
-- else's profile. This is the pattern of Supabase's MFA guide: restrictive policies, which Postgres
-- ANDs with every permissive policy of the table, so each table's own rules stay as they are.

-- Whether the caller's session is strong enough for them: aal2, or no verified factor to step up with.
-- Security definer: auth.mfa_factors is not readable by the `authenticated` role.
create function public.mfa_satisfied() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', '') = 'aal2'
      or not exists (
        select 1 from auth.mfa_factors f
         where f.user_id = (select auth.uid()) and f.status = 'verified'
      )
$$;

revoke execute on function public.mfa_satisfied() from public, anon;
grant execute on function public.mfa_satisfied() to authenticated;

-- Workspace data: nothing at all below the user's level. `(select …)` runs the check once per statement.
create policy "aal2 once a factor is verified" on public.workspaces
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "aal2 once a factor is verified" on public.workspace_members
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "aal2 once a factor is verified" on public.projects
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "aal2 once a factor is verified" on public.tasks
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "aal2 once a factor is verified" on public.comments
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "aal2 once a factor is verified" on public.activity
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

create policy "aal2 once a factor is verified" on public.invitations
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

-- Profiles: one's own stays readable (the step-up page may greet them); others' and any change need aal2.
create policy "aal2 once a factor is verified" on public.profiles
  as restrictive for all to authenticated
  using (id = (select auth.uid()) or (select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

-- Files (avatars, attachments): every bucket, every operation through the API as the user.
create policy "aal2 once a factor is verified" on storage.objects
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));

-- Security-definer functions do not pass through RLS, so the ones that read or change workspaces as
-- the caller apply the same rule. The membership helpers see no membership below the user's level
-- (has_role, and so transfer_ownership, create_invitation and resend_invitation, follow)…
create or replace function public.workspace_role_of(ws uuid) returns public.workspace_role
language sql
stable
security definer
set search_path = ''
as $$
  select m.role from public.workspace_members m
   where m.workspace_id = ws and m.user_id = (select auth.uid()) and public.mfa_satisfied()
$$;

create or replace function public.is_member(ws uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select public.workspace_role_of(ws) is not null
$$;

create or replace function public.my_workspace_ids(at_least public.workspace_role default 'viewer') returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.workspace_id from public.workspace_members m
   where m.user_id = (select auth.uid()) and m.role >= at_least and public.mfa_satisfied()
$$;

create or replace function public.fellow_member_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select distinct theirs.user_id
    from public.workspace_members mine
    join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
   where mine.user_id = (select auth.uid()) and public.mfa_satisfied()
$$;

create or replace function public.shares_workspace_with(other uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select public.mfa_satisfied() and exists (
    select 1
      from public.workspace_members mine
      join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
     where mine.user_id = (select auth.uid()) and theirs.user_id = other
  )
$$;

-- …and the two that make memberships refuse outright.
create or replace function public.create_workspace(name text, slug text) returns public.workspaces
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
  if not public.mfa_satisfied() then
    raise exception 'Enter the code from your authenticator app to continue.' using errcode = 'insufficient_privilege';
  end if;
  insert into public.workspaces (name, slug, created_by)
  values (btrim(create_workspace.name), lower(btrim(create_workspace.slug)), uid)
  returning * into created;
  insert into public.workspace_members (workspace_id, user_id, role) values (created.id, uid, 'owner');
  return created;
end
$$;

create or replace function public.accept_invitation(token text) returns public.workspaces
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  invitation public.invitations;
  joined public.workspaces;
begin
  if uid is null then
    raise exception 'Sign in to accept the invitation.' using errcode = 'insufficient_privilege';
  end if;
  if not public.mfa_satisfied() then
    raise exception 'Enter the code from your authenticator app to continue.' using errcode = 'insufficient_privilege';
  end if;
  select * into invitation from public.invitations i
   where i.token_hash = public.invitation_token_hash(accept_invitation.token) for update;
  if not found
     or invitation.revoked_at is not null
     or (invitation.accepted_at is null and invitation.expires_at < now())
     or invitation.email <> (select lower(u.email) from auth.users u where u.id = uid)
     or (invitation.accepted_by is not null and invitation.accepted_by <> uid) then
    raise exception 'This invitation has expired, was revoked, or is for another email address.'
      using errcode = 'PT404';
  end if;
  if invitation.accepted_at is null then
    insert into public.workspace_members (workspace_id, user_id, role)
    values (invitation.workspace_id, uid, invitation.role)
    on conflict (workspace_id, user_id) do nothing;
    update public.invitations i set accepted_at = now(), accepted_by = uid where i.id = invitation.id;
  end if;
  select * into joined from public.workspaces w where w.id = invitation.workspace_id;
  return joined;
end
$$;

-- The app's per-request check, one query: is this token's session still there, and has it reached
-- the level its user needs? ('ended', 'mfa_required' or 'active'.)
create function public.session_status() returns text
language sql
stable
security definer
set search_path = ''
as $$
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
$$;

revoke execute on function public.session_status() from public, anon;
grant execute on function public.session_status() to authenticated;
