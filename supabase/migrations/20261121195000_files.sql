-- Files: avatars (public bucket, each user writes only their own folder) and task attachments (private
-- bucket at <workspace_id>/<task_id>/<file>, read by the workspace's members, written by its members).
-- Rows in public.attachments describe the files; a file whose row is deleted (directly, or with its
-- task or workspace) is queued in private.storage_trash, which the app empties through the Storage
-- API: hosted Storage refuses deleting from storage.objects in SQL, and a file must go with its row.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('avatars', 'avatars', true, 2 * 1024 * 1024, array['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
  ('attachments', 'attachments', false, 10 * 1024 * 1024, null)
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Avatars: anyone may fetch a public URL; only the owner of the folder lists, writes or deletes in it.
create policy "users manage the avatars in their folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "users upload avatars to their folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "users replace avatars in their folder" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "users delete avatars in their folder" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

alter table public.profiles
  add constraint profiles_avatar_in_own_folder check (avatar_path is null or avatar_path like id::text || '/%');

-- Attachments
create table public.attachments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  task_id uuid not null,
  path text not null unique,
  name text not null check (char_length(name) between 1 and 200),
  size bigint not null check (size between 0 and 10 * 1024 * 1024),
  content_type text not null check (char_length(content_type) between 1 and 200),
  uploaded_by uuid default auth.uid()
    constraint attachments_uploader_profile_fkey references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint attachments_task_fkey foreign key (task_id, workspace_id)
    references public.tasks (id, workspace_id) on delete cascade,
  constraint attachments_path_in_task_folder check (path like workspace_id::text || '/' || task_id::text || '/%')
);

create index attachments_task_idx on public.attachments (task_id, created_at);
create index attachments_workspace_id_idx on public.attachments (workspace_id);
create index attachments_uploaded_by_idx on public.attachments (uploaded_by);

alter table public.attachments enable row level security;

create policy "members read attachments" on public.attachments
  for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()));

create policy "members attach files to tasks of active projects" on public.attachments
  for insert to authenticated
  with check (
    workspace_id in (select public.my_workspace_ids('member'))
    and uploaded_by = (select auth.uid())
    and not exists (
      select 1 from public.tasks t
       where t.id = task_id and t.project_id in (select public.archived_project_ids())
    )
  );

create policy "uploaders and admins delete attachments" on public.attachments
  for delete to authenticated
  using (
    (uploaded_by = (select auth.uid()) and workspace_id in (select public.my_workspace_ids('member')))
    or workspace_id in (select public.my_workspace_ids('admin'))
  );

revoke all on public.attachments from anon;
revoke insert, update, truncate on public.attachments from authenticated;
grant insert (id, workspace_id, task_id, path, name, size, content_type, uploaded_by) on public.attachments
  to authenticated;

-- The files themselves: the folder names the workspace and the task.
create function public.attachment_folder_ok(object_name text, at_least public.workspace_role) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.tasks t
     where t.workspace_id::text = (storage.foldername(object_name))[1]
       and t.id::text = (storage.foldername(object_name))[2]
       and t.workspace_id in (select public.my_workspace_ids(at_least))
  )
$$;

revoke execute on function public.attachment_folder_ok(text, public.workspace_role) from public, anon;
grant execute on function public.attachment_folder_ok(text, public.workspace_role) to authenticated;

create policy "members read attachment files" on storage.objects
  for select to authenticated
  using (bucket_id = 'attachments' and (select public.attachment_folder_ok(name, 'viewer')));
create policy "members upload attachment files" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'attachments' and (select public.attachment_folder_ok(name, 'member')));
create policy "uploaders and admins delete attachment files" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'attachments'
    and (
      (owner_id = (select auth.uid())::text and (select public.attachment_folder_ok(name, 'member')))
      or (select public.attachment_folder_ok(name, 'admin'))
    )
  );

-- The trash: files whose rows are gone, waiting for the app to delete them through the Storage API.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

create table private.storage_trash (
  bucket_id text not null,
  name text not null,
  queued_at timestamptz not null default now(),
  primary key (bucket_id, name)
);

create function private.trash_attachment_file() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.storage_trash (bucket_id, name) values ('attachments', old.path)
  on conflict do nothing;
  return old;
end
$$;

create trigger attachments_trash_file after delete on public.attachments
  for each row execute function private.trash_attachment_file();

create function private.trash_avatar_file() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.avatar_path is not null and (tg_op = 'DELETE' or old.avatar_path is distinct from new.avatar_path) then
    insert into private.storage_trash (bucket_id, name) values ('avatars', old.avatar_path)
    on conflict do nothing;
  end if;
  return coalesce(new, old);
end
$$;

create trigger profiles_trash_avatar after update of avatar_path or delete on public.profiles
  for each row execute function private.trash_avatar_file();

-- The service role reads the queue and marks what it removed.
create function public.storage_trash(max_items integer default 100)
returns table (bucket_id text, name text)
language sql
stable
security definer
set search_path = ''
as $$
  select t.bucket_id, t.name from private.storage_trash t order by t.queued_at limit max_items
$$;

create function public.storage_trash_emptied(bucket text, names text[]) returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.storage_trash t where t.bucket_id = bucket and t.name = any (names)
$$;

revoke execute on function public.storage_trash(integer), public.storage_trash_emptied(text, text[])
  from public, anon, authenticated;
grant execute on function public.storage_trash(integer), public.storage_trash_emptied(text, text[])
  to service_role;
