-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.my_unread_notifications().

CREATE OR REPLACE FUNCTION public.my_unread_notifications()
 RETURNS integer
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select count(*)::integer
    from (
      select 1
        from public.notifications n
       where n.recipient_id = (select auth.uid())
         and n.read_at is null
         and n.archived_at is null
         and exists (select 1 from public.workspace_members m
                      where m.workspace_id = n.workspace_id and m.user_id = n.recipient_id)
         and not exists (select 1 from public.tasks t
                          where t.id = n.task_id and t.deleted_at is not null)
       limit 100
    ) unread
$function$;
grant execute on function public.my_unread_notifications() to authenticated, service_role;
