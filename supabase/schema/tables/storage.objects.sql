-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- What the app adds to storage.objects, a table of the platform's: its policies and triggers.

create policy "aal2 once a factor is verified" on storage.objects
  as restrictive
  for all
  to authenticated
  using (( SELECT public.mfa_satisfied() AS mfa_satisfied))
  with check (( SELECT public.mfa_satisfied() AS mfa_satisfied));

create policy "members read attachment files" on storage.objects
  for select
  to authenticated
  using (bucket_id = 'attachments'::text AND ( SELECT public.attachment_folder_ok(objects.name, 'viewer'::public.workspace_role) AS attachment_folder_ok));

create policy "members upload attachment files" on storage.objects
  for insert
  to authenticated
  with check (bucket_id = 'attachments'::text AND ( SELECT public.attachment_folder_ok(objects.name, 'member'::public.workspace_role) AS attachment_folder_ok));

create policy "uploaders and admins delete attachment files" on storage.objects
  for delete
  to authenticated
  using (bucket_id = 'attachments'::text AND (owner_id = ((( SELECT auth.uid() AS uid))::text) AND ( SELECT public.attachment_folder_ok(objects.name, 'member'::public.workspace_role) AS attachment_folder_ok) OR ( SELECT public.attachment_folder_ok(objects.name, 'admin'::public.workspace_role) AS attachment_folder_ok)));

create policy "users delete avatars in their folder" on storage.objects
  for delete
  to authenticated
  using (bucket_id = 'avatars'::text AND (storage.foldername(name))[1] = ((( SELECT auth.uid() AS uid))::text));

create policy "users manage the avatars in their folder" on storage.objects
  for select
  to authenticated
  using (bucket_id = 'avatars'::text AND (storage.foldername(name))[1] = ((( SELECT auth.uid() AS uid))::text));

create policy "users replace avatars in their folder" on storage.objects
  for update
  to authenticated
  using (bucket_id = 'avatars'::text AND (storage.foldername(name))[1] = ((( SELECT auth.uid() AS uid))::text))
  with check (bucket_id = 'avatars'::text AND (storage.foldername(name))[1] = ((( SELECT auth.uid() AS uid))::text));

create policy "users upload avatars to their folder" on storage.objects
  for insert
  to authenticated
  with check (bucket_id = 'avatars'::text AND (storage.foldername(name))[1] = ((( SELECT auth.uid() AS uid))::text));
