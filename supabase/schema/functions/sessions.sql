-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: sessions: the per-request check, the list of my sessions, signing one out.

CREATE OR REPLACE FUNCTION public.my_sessions()
 RETURNS TABLE(id uuid, created_at timestamp with time zone, last_seen_at timestamp with time zone, user_agent text, is_current boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select s.id,
         s.created_at,
         -- refreshed_at is a UTC timestamp without a zone, as GoTrue writes it.
         greatest(s.created_at, s.updated_at, s.refreshed_at at time zone 'UTC'),
         s.user_agent,
         s.id = nullif(auth.jwt() ->> 'session_id', '')::uuid
    from auth.sessions s
   where s.user_id = (select auth.uid())
     and (s.not_after is null or s.not_after > now())
     and public.mfa_satisfied()
   order by 3 desc
$function$;
grant execute on function public.my_sessions() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.session_is_active()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.session_is_active() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.session_status()
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.session_status() to authenticated, service_role;

CREATE OR REPLACE FUNCTION public.sign_out_session(session_id uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := (select auth.uid());
begin
  if uid is null or not public.mfa_satisfied() then
    raise exception 'You cannot end this session.' using errcode = 'insufficient_privilege';
  end if;
  delete from auth.refresh_tokens t
   where t.session_id = sign_out_session.session_id
     and exists (select 1 from auth.sessions s where s.id = sign_out_session.session_id and s.user_id = uid);
  delete from auth.sessions s where s.id = sign_out_session.session_id and s.user_id = uid;
  return found;
end
$function$;
grant execute on function public.sign_out_session(uuid) to authenticated, service_role;
