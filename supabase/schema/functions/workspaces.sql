-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: workspaces: creating one, the personal one, ownership, members, deleting an account.

CREATE OR REPLACE FUNCTION public.create_personal_workspace()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.create_personal_workspace() to service_role;

CREATE OR REPLACE FUNCTION public.create_workspace(name text, slug text)
 RETURNS public.workspaces
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.create_workspace(text,text) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.delete_workspaces_of_deleted_user()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if exists (
    select 1
      from public.workspace_members m
      join public.workspaces w on w.id = m.workspace_id
     where m.user_id = old.id and m.role = 'owner' and not w.is_personal
       and exists (select 1 from public.workspace_members o where o.workspace_id = w.id and o.user_id <> old.id)
  ) then
    raise exception 'This account owns a shared workspace: transfer its ownership or delete it first.'
      using errcode = 'check_violation';
  end if;
  delete from public.workspaces w
   where (w.created_by = old.id and w.is_personal)
      or w.id in (select m.workspace_id from public.workspace_members m where m.user_id = old.id and m.role = 'owner');
  return old;
end
$function$;
grant execute on function public.delete_workspaces_of_deleted_user() to service_role;

CREATE OR REPLACE FUNCTION public.limit_workspace_members()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if (select count(*) from public.workspace_members where workspace_id = new.workspace_id) >= 100 then
    raise exception 'A workspace can have at most 100 members.' using errcode = 'check_violation';
  end if;
  return new;
end
$function$;
grant execute on function public.limit_workspace_members() to anon, authenticated, public, service_role;

CREATE OR REPLACE FUNCTION public.owned_workspaces()
 RETURNS TABLE(id uuid, name text, slug text, is_personal boolean, other_members integer)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select w.id, w.name, w.slug, w.is_personal,
         (select count(*)::integer from public.workspace_members o
           where o.workspace_id = w.id and o.user_id <> (select auth.uid()))
    from public.workspaces w
    join public.workspace_members m on m.workspace_id = w.id
   where m.user_id = (select auth.uid()) and m.role = 'owner'
   order by w.name
$function$;
grant execute on function public.owned_workspaces() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.transfer_ownership(ws uuid, new_owner uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.transfer_ownership(uuid,uuid) to authenticated, service_role;
