-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: files: the trash of storage objects whose rows are gone.

CREATE OR REPLACE FUNCTION public.storage_trash(max_items integer DEFAULT 100)
 RETURNS TABLE(bucket_id text, name text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select t.bucket_id, t.name from private.storage_trash t order by t.queued_at limit max_items
$function$;
grant execute on function public.storage_trash(integer) to service_role;

CREATE OR REPLACE FUNCTION public.storage_trash_emptied(bucket text, names text[])
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  delete from private.storage_trash t where t.bucket_id = bucket and t.name = any (names)
$function$;
grant execute on function public.storage_trash_emptied(text,text[]) to service_role;

CREATE OR REPLACE FUNCTION private.forget_trashed_task_emails()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  delete from private.notification_outbox o
   using public.notifications n
   where n.id = o.notification_id
     and n.task_id = new.id;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION private.task_history_of_trash()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.record_task_history(new.workspace_id, new.id,
    case when new.deleted_at is null then 'restored' else 'deleted' end, '{}');
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION private.trash_attachment_file()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into private.storage_trash (bucket_id, name) values ('attachments', old.path)
  on conflict do nothing;
  return old;
end
$function$;
grant execute on function private.trash_attachment_file() to public;

CREATE OR REPLACE FUNCTION private.trash_avatar_file()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if old.avatar_path is not null and (tg_op = 'DELETE' or old.avatar_path is distinct from new.avatar_path) then
    insert into private.storage_trash (bucket_id, name) values ('avatars', old.avatar_path)
    on conflict do nothing;
  end if;
  return coalesce(new, old);
end
$function$;
grant execute on function private.trash_avatar_file() to public;
