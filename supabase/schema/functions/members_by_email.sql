-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.members_by_email(uuid,text[]).

CREATE OR REPLACE FUNCTION public.members_by_email(workspace_id uuid, emails text[])
 RETURNS TABLE(email text, user_id uuid)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not public.has_role(members_by_email.workspace_id, 'admin') then
    return;
  end if;
  return query
    select lower(u.email)::text, m.user_id
      from public.workspace_members m
      join auth.users u on u.id = m.user_id
     where m.workspace_id = members_by_email.workspace_id
       and lower(u.email) in (select lower(e) from unnest(members_by_email.emails) as e limit 5000);
end
$function$;
grant execute on function public.members_by_email(uuid,text[]) to authenticated, service_role;
