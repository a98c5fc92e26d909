-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.forget_former_members().

CREATE OR REPLACE FUNCTION private.forget_former_members()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  delete from public.notifications n
   using old_rows o
   where n.recipient_id = o.user_id and n.workspace_id = o.workspace_id;
  delete from public.task_watchers w
   using old_rows o
   where w.user_id = o.user_id and w.workspace_id = o.workspace_id;
  delete from public.saved_views v
   using old_rows o
   where v.owner_id = o.user_id and v.workspace_id = o.workspace_id and not v.shared;
  return null;
end
$function$;
