-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.notification_email_failed(bigint,text,integer).

CREATE OR REPLACE FUNCTION public.notification_email_failed(email_id bigint, error text, retry_seconds integer DEFAULT 60)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  update private.notification_emails e
     set leased_until = null,
         last_error = left(error, 1000),
         next_attempt_at = now() + least(
           make_interval(secs => greatest(retry_seconds, 1) * power(2, least(e.attempts - 1, 20))),
           interval '6 hours'
         ),
         gave_up_at = case when e.attempts >= private.notification_email_max_attempts() then now() end
   where e.id = email_id and e.sent_at is null
$function$;
grant execute on function public.notification_email_failed(bigint,text,integer) to service_role;
