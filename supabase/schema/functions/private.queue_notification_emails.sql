-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: private.queue_notification_emails().

CREATE OR REPLACE FUNCTION private.queue_notification_emails()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into private.notification_outbox (notification_id, recipient_id)
  select n.id, n.recipient_id
    from added n
    left join public.notification_preferences p on p.user_id = n.recipient_id
   where coalesce(p.email_frequency, 'instant') <> 'never'
     and (p.user_id is null or n.kind = any (p.email_kinds))
  on conflict do nothing;
  return null;
end
$function$;
grant execute on function private.queue_notification_emails() to public;
