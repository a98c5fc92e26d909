-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.unsubscribe_notification_emails(text,boolean).

CREATE OR REPLACE FUNCTION public.unsubscribe_notification_emails(token text, apply boolean DEFAULT false)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  parts text[];
  person uuid;
  found private.notification_unsubscribe_tokens;
  current_frequency text;
begin
  parts := regexp_match(coalesce(token, ''), '^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-f]{64})$');
  if parts is null then
    return 'invalid';
  end if;
  person := parts[1]::uuid;
  select * into found from private.notification_unsubscribe_tokens t
   where t.token_hash = sha256(convert_to(parts[2], 'UTF8'));
  if found.user_id is null or found.user_id <> person then
    return 'invalid';
  end if;
  if found.expires_at <= now() then
    return 'expired';
  end if;
  select p.email_frequency into current_frequency from public.notification_preferences p
   where p.user_id = person;
  if current_frequency = 'never' then
    return 'already';
  end if;
  if not apply then
    return 'valid';
  end if;
  insert into public.notification_preferences (user_id, email_frequency) values (person, 'never')
  on conflict (user_id) do update set email_frequency = 'never', updated_at = now();
  -- Nothing queued for them is sent any more, nor an email still waiting for a retry.
  delete from private.notification_outbox o where o.recipient_id = person;
  update private.notification_emails e set gave_up_at = now(), last_error = 'unsubscribed'
   where e.recipient_id = person and e.sent_at is null and e.gave_up_at is null;
  return 'unsubscribed';
end
$function$;
grant execute on function public.unsubscribe_notification_emails(text,boolean) to anon, authenticated, service_role;
