-- account_page: the profile page's data and the session check in one request.
--
-- Every signed-in page asks whether its session is still active (session_status); the profile page
-- also reads the caller's profile. This answers both: { "session": "active" | "mfa_required" |
-- "ended", "profile": null | {display_name, avatar_path} }. The profile is read as the caller, under
-- RLS, and only for an active session.
create function public.account_page() returns json
language sql
stable
security invoker
set search_path = ''
as $$
  with session as (
    select public.session_status() as status
  )
  select json_build_object(
    'session', (select status from session),
    'profile', (
      select json_build_object('display_name', p.display_name, 'avatar_path', p.avatar_path)
        from public.profiles p
       where p.id = (select auth.uid())
         and (select status from session) = 'active'
    )
  )
$$;

revoke execute on function public.account_page() from public, anon;
grant execute on function public.account_page() to authenticated;
