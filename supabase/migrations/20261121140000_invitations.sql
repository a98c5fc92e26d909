-- Invitations by email. The link's token is never stored: only its SHA-256, which no client role may
-- read, so nobody (admins included) can take over someone else's invitation from the table.

create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null
    check (email = lower(btrim(email)) and char_length(email) between 3 and 254 and position('@' in email) > 1),
  role public.workspace_role not null check (role in ('admin', 'member', 'viewer')),
  token_hash text not null,
  invited_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  revoked_at timestamptz,
  constraint invitations_token_hash_key unique (token_hash)
);

create index invitations_workspace_id_idx on public.invitations (workspace_id);
create index invitations_invited_by_idx on public.invitations (invited_by);
create index invitations_accepted_by_idx on public.invitations (accepted_by);
-- One open invitation per address and workspace; inviting again refreshes it.
create unique index invitations_one_pending on public.invitations (workspace_id, email)
  where accepted_at is null and revoked_at is null;

alter table public.invitations enable row level security;

create policy "admins see their workspace's invitations" on public.invitations
  for select to authenticated using ((select public.has_role(workspace_id, 'admin')));

-- Revoking sets revoked_at; admins revoke below admin, the owner any.
create policy "admins revoke invitations" on public.invitations
  for update to authenticated
  using (
    accepted_at is null
    and ((select public.has_role(workspace_id, 'owner')) or ((select public.has_role(workspace_id, 'admin')) and role <> 'admin'))
  )
  with check (
    (select public.has_role(workspace_id, 'owner')) or ((select public.has_role(workspace_id, 'admin')) and role <> 'admin')
  );

revoke all on public.invitations from anon, authenticated;
grant select (id, workspace_id, email, role, invited_by, created_at, expires_at, accepted_at, accepted_by, revoked_at)
  on public.invitations to authenticated;
grant update (revoked_at) on public.invitations to authenticated;

create function public.invitation_token_hash(token text) returns text
language sql
immutable
set search_path = ''
as $$
  select encode(extensions.digest(token, 'sha256'), 'hex')
$$;

revoke execute on function public.invitation_token_hash(text) from public, anon, authenticated;

-- create_invitation: admins invite members and viewers, the owner also admins. Returns the token once,
-- for the email; inviting an address again replaces the open invitation's token and expiry.
create function public.create_invitation(workspace_id uuid, email text, role public.workspace_role)
returns table (invitation_id uuid, token text)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  address text := lower(btrim(create_invitation.email));
  fresh text := encode(extensions.gen_random_bytes(32), 'hex');
begin
  if not public.has_role(create_invitation.workspace_id, 'admin') then
    raise exception 'Only admins can invite.' using errcode = 'insufficient_privilege';
  end if;
  if create_invitation.role = 'owner'
     or (create_invitation.role = 'admin' and not public.has_role(create_invitation.workspace_id, 'owner')) then
    raise exception 'Only the owner can invite admins.' using errcode = 'insufficient_privilege';
  end if;
  if exists (
    select 1 from public.workspace_members m join auth.users u on u.id = m.user_id
     where m.workspace_id = create_invitation.workspace_id and lower(u.email) = address
  ) then
    raise exception 'That person is already a member.' using errcode = 'unique_violation';
  end if;
  if (select count(*) from public.workspace_members m where m.workspace_id = create_invitation.workspace_id) >= 100 then
    raise exception 'A workspace can have at most 100 members.' using errcode = 'check_violation';
  end if;
  return query
  insert into public.invitations as i (workspace_id, email, role, token_hash, invited_by)
  values (create_invitation.workspace_id, address, create_invitation.role, public.invitation_token_hash(fresh), (select auth.uid()))
  on conflict (workspace_id, email) where accepted_at is null and revoked_at is null
  do update set role = excluded.role, token_hash = excluded.token_hash, invited_by = excluded.invited_by,
                created_at = now(), expires_at = now() + interval '7 days'
  returning i.id, fresh;
end
$$;

-- resend_invitation: a new token and seven more days for an open invitation.
create function public.resend_invitation(invitation_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  fresh text := encode(extensions.gen_random_bytes(32), 'hex');
  invitation public.invitations;
begin
  select * into invitation from public.invitations i where i.id = resend_invitation.invitation_id;
  if not found or not public.has_role(invitation.workspace_id, 'admin')
     or (invitation.role = 'admin' and not public.has_role(invitation.workspace_id, 'owner')) then
    raise exception 'Invitation not found.' using errcode = 'PT404';
  end if;
  if invitation.accepted_at is not null or invitation.revoked_at is not null then
    raise exception 'This invitation is no longer open.' using errcode = 'check_violation';
  end if;
  update public.invitations i
     set token_hash = public.invitation_token_hash(fresh), expires_at = now() + interval '7 days'
   where i.id = invitation.id;
  return fresh;
end
$$;

-- invitation_preview: what the /invite page shows before anyone signs in (holding the token is the proof).
create function public.invitation_preview(token text)
returns table (workspace_name text, email text, role public.workspace_role, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select w.name, i.email, i.role,
         case
           when i.accepted_at is not null then 'accepted'
           when i.revoked_at is not null then 'revoked'
           when i.expires_at < now() then 'expired'
           else 'pending'
         end
    from public.invitations i join public.workspaces w on w.id = i.workspace_id
   where i.token_hash = public.invitation_token_hash(invitation_preview.token)
$$;

-- accept_invitation: joins the workspace, only for the invited address; accepting twice is harmless.
create function public.accept_invitation(token text) returns public.workspaces
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

revoke execute on function public.create_invitation(uuid, text, public.workspace_role), public.resend_invitation(uuid),
  public.accept_invitation(text) from public, anon;
grant execute on function public.create_invitation(uuid, text, public.workspace_role), public.resend_invitation(uuid),
  public.accept_invitation(text) to authenticated;
revoke execute on function public.invitation_preview(text) from public;
grant execute on function public.invitation_preview(text) to anon, authenticated;
