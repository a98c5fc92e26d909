-- Realtime channels of a board, `board:<project_id>`, are private: only members of the project's
-- workspace may join them, see who else is there (presence) and be seen. Realtime authorizes a
-- private channel by these policies on realtime.messages (Supabase Realtime Authorization).

create function public.may_join_board_channel(topic text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.projects p
     where 'board:' || p.id::text = topic
       and p.workspace_id in (select public.my_workspace_ids())
  )
$$;

revoke execute on function public.may_join_board_channel(text) from public, anon;
grant execute on function public.may_join_board_channel(text) to authenticated;

create policy "members see who is on their boards" on realtime.messages
  for select to authenticated
  using (extension = 'presence' and (select public.may_join_board_channel(realtime.topic())));

create policy "members show themselves on their boards" on realtime.messages
  for insert to authenticated
  with check (extension = 'presence' and (select public.may_join_board_channel(realtime.topic())));
