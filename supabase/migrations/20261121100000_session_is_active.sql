-- Whether the session in the caller's JWT still exists. Access tokens stay valid until they expire,
-- so signing out elsewhere ("everywhere", "other devices", a password change) would otherwise take up
-- to an hour to reach a device; the app asks this once per request.

create function public.session_is_active() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
      from auth.sessions s
     where s.id = nullif(auth.jwt() ->> 'session_id', '')::uuid
       and s.user_id = auth.uid()
       and (s.not_after is null or s.not_after > now())
  )
$$;

revoke execute on function public.session_is_active() from public, anon;
grant execute on function public.session_is_active() to authenticated;
