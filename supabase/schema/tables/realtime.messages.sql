-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- What the app adds to realtime.messages, a table of the platform's: its policies and triggers.

create policy "members see who is on their boards" on realtime.messages
  for select
  to authenticated
  using (extension = 'presence'::text AND ( SELECT public.may_join_board_channel(realtime.topic()) AS may_join_board_channel));

create policy "members show themselves on their boards" on realtime.messages
  for insert
  to authenticated
  with check (extension = 'presence'::text AND ( SELECT public.may_join_board_channel(realtime.topic()) AS may_join_board_channel));
