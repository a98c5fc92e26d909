-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: invitations: sending, previewing, accepting.

CREATE OR REPLACE FUNCTION public.accept_invitation(token text)
 RETURNS public.workspaces
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.accept_invitation(text) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.create_invitation(workspace_id uuid, email text, role public.workspace_role)
 RETURNS TABLE(invitation_id uuid, token text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.create_invitation(uuid,text,public.workspace_role) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.invitation_preview(token text)
 RETURNS TABLE(workspace_name text, email text, role public.workspace_role, status text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select w.name, i.email, i.role,
         case
           when i.accepted_at is not null then 'accepted'
           when i.revoked_at is not null then 'revoked'
           when i.expires_at < now() then 'expired'
           else 'pending'
         end
    from public.invitations i join public.workspaces w on w.id = i.workspace_id
   where i.token_hash = public.invitation_token_hash(invitation_preview.token)
$function$;
grant execute on function public.invitation_preview(text) to anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION public.invitation_token_hash(token text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select encode(extensions.digest(token, 'sha256'), 'hex')
$function$;
grant execute on function public.invitation_token_hash(text) to service_role;

CREATE OR REPLACE FUNCTION public.resend_invitation(invitation_id uuid)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.resend_invitation(uuid) to authenticated, service_role;
