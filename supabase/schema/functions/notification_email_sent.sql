-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.notification_email_sent(bigint).

CREATE OR REPLACE FUNCTION public.notification_email_sent(email_id bigint)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  person uuid;
begin
  update private.notification_emails e
     set sent_at = now(), leased_until = null, unsubscribe_token = null, last_error = null
   where e.id = email_id and e.sent_at is null
  returning e.recipient_id into person;
  if person is not null then
    insert into private.notification_email_state (user_id, last_sent_at) values (person, now())
    on conflict (user_id) do update set last_sent_at = excluded.last_sent_at;
  end if;
end
$function$;
grant execute on function public.notification_email_sent(bigint) to service_role;
