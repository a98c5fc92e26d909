-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: the helpers the row-level security policies call (membership, roles, archived projects, MFA).

CREATE OR REPLACE FUNCTION public.archived_project_ids()
 RETURNS SETOF uuid
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return query
    select p.id from public.projects p
     where p.archived_at is not null
       and p.workspace_id in (select public.my_workspace_ids());
end
$function$;
grant execute on function public.archived_project_ids() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.attachment_folder_ok(object_name text, at_least public.workspace_role)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select exists (
      select 1 from public.tasks t
       where t.workspace_id::text = (storage.foldername(object_name))[1]
         and t.id::text = (storage.foldername(object_name))[2]
         and t.deleted_at is null
         and t.workspace_id in (select public.my_workspace_ids(at_least))
    )
  );
end
$function$;
grant execute on function public.attachment_folder_ok(text,public.workspace_role) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.fellow_member_ids()
 RETURNS SETOF uuid
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.fellow_member_ids() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.has_role(ws uuid, at_least public.workspace_role)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select coalesce(public.workspace_role_of(ws) >= at_least, false)
  );
end
$function$;
grant execute on function public.has_role(uuid,public.workspace_role) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.is_member(ws uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select public.workspace_role_of(ws) is not null
  );
end
$function$;
grant execute on function public.is_member(uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.mfa_satisfied()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.mfa_satisfied() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.my_workspace_ids(at_least public.workspace_role DEFAULT 'viewer'::public.workspace_role)
 RETURNS SETOF uuid
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.my_workspace_ids(public.workspace_role) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.project_is_active(project uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select exists (select 1 from public.projects p where p.id = project and p.archived_at is null)
  );
end
$function$;
grant execute on function public.project_is_active(uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.shares_workspace_with(other uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.shares_workspace_with(uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.task_is_writable(task uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select exists (
      select 1 from public.tasks t join public.projects p on p.id = t.project_id
       where t.id = task and p.archived_at is null and t.deleted_at is null
    )
  );
end
$function$;
grant execute on function public.task_is_writable(uuid) to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.workspace_role_of(ws uuid)
 RETURNS public.workspace_role
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select m.role from public.workspace_members m
     where m.workspace_id = ws and m.user_id = (select auth.uid()) and public.mfa_satisfied()
  );
end
$function$;
grant execute on function public.workspace_role_of(uuid) to authenticated, service_role;
