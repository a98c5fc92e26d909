-- The signed-in user's devices, for /account/security: each session with its browser and when it was
-- last seen, and a way to end one of them. Only the caller's own sessions, and only at the level their
-- account needs (a password alone must not be enough to throw the real owner out).

create function public.my_sessions()
returns table (id uuid, created_at timestamptz, last_seen_at timestamptz, user_agent text, is_current boolean)
language sql
stable
security definer
set search_path = ''
as $$
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
$$;

-- Ends one of the caller's sessions: its refresh tokens go with it, so the device cannot get a new
-- access token, and the app's per-request session check turns its current one away. True when a
-- session of the caller's was ended.
create function public.sign_out_session(session_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

revoke execute on function public.my_sessions(), public.sign_out_session(uuid) from public, anon;
grant execute on function public.my_sessions(), public.sign_out_session(uuid) to authenticated;
