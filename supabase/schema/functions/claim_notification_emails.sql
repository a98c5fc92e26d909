-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.claim_notification_emails(integer,integer,integer).

CREATE OR REPLACE FUNCTION public.claim_notification_emails(interval_seconds integer DEFAULT 600, lease_seconds integer DEFAULT 600, max_emails integer DEFAULT 50)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  claimed bigint[] := '{}';
  lease timestamptz := now() + make_interval(secs => greatest(lease_seconds, 1));
  person record;
  worth bigint[];
  secret text;
  made bigint;
begin
  if interval_seconds is null or interval_seconds < 0 then
    raise exception 'interval_seconds must be 0 or more' using errcode = '22023';
  end if;

  -- 1. Emails made earlier whose turn has come again (failed, or their run died).
  with due as (
    select e.id from private.notification_emails e
     where e.sent_at is null and e.gave_up_at is null
       and e.next_attempt_at <= now()
       and (e.leased_until is null or e.leased_until < now())
     order by e.next_attempt_at, e.id
     limit greatest(max_emails, 1)
       for update skip locked
  ), leased as (
    update private.notification_emails e
       set leased_until = lease, attempts = e.attempts + 1
      from due
     where e.id = due.id
    returning e.id
  )
  select coalesce(array_agg(leased.id), '{}') into claimed from leased;

  -- 2. People with queued notifications who are due for an email.
  insert into private.notification_email_state (user_id)
  select distinct o.recipient_id from private.notification_outbox o
  on conflict do nothing;

  for person in
    select s.user_id, coalesce(p.email_frequency, 'instant') as frequency,
           coalesce(p.email_kinds, '{assigned,mentioned,commented,status_changed,added_to_workspace}')
             as email_kinds,
           coalesce(p.inbox_kinds, '{assigned,mentioned,commented,status_changed,added_to_workspace}')
             as inbox_kinds
      from private.notification_email_state s
      left join public.notification_preferences p on p.user_id = s.user_id
     -- Driven by the queue (people with something waiting), not by everyone ever emailed.
     where s.user_id in (select o.recipient_id from private.notification_outbox o)
       and not exists (
         select 1 from private.notification_emails e
          where e.recipient_id = s.user_id and e.sent_at is null and e.gave_up_at is null
       )
       and (
         s.last_sent_at is null
         or coalesce(p.email_frequency, 'instant') = 'never'
         or s.last_sent_at + case coalesce(p.email_frequency, 'instant')
              when 'hourly' then interval '1 hour'
              when 'daily' then interval '1 day'
              else make_interval(secs => interval_seconds)
            end <= now()
       )
     order by s.last_sent_at nulls first, s.user_id
     limit greatest(max_emails - coalesce(array_length(claimed, 1), 0), 0)
       for update of s skip locked
  loop
    select coalesce(array_agg(n.id order by n.id), '{}') into worth
      from private.notification_outbox o
      join public.notifications n on n.id = o.notification_id
     where o.recipient_id = person.user_id
       and person.frequency <> 'never'
       and n.kind = any (person.email_kinds)
       and n.read_at is null
       and (n.archived_at is null or not (n.kind = any (person.inbox_kinds)))
       and exists (
         select 1 from public.workspace_members m
          where m.workspace_id = n.workspace_id and m.user_id = n.recipient_id
       );
    -- Everything queued for them is either in this email or no longer worth telling.
    delete from private.notification_outbox o where o.recipient_id = person.user_id;
    continue when cardinality(worth) = 0;

    secret := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
    insert into private.notification_unsubscribe_tokens (token_hash, user_id, expires_at)
    values (sha256(convert_to(secret, 'UTF8')), person.user_id, now() + private.unsubscribe_link_lifetime());
    insert into private.notification_emails
      (recipient_id, message_key, notification_ids, unsubscribe_token, attempts, leased_until)
    values (
      person.user_id,
      'notifications.' || replace(gen_random_uuid()::text, '-', ''),
      worth,
      person.user_id::text || '.' || secret,
      1,
      lease
    )
    returning id into made;
    claimed := claimed || made;
  end loop;

  return coalesce((
    select jsonb_agg(private.notification_email_json(e) order by e.id)
      from private.notification_emails e
     where e.id = any (claimed)
  ), '[]'::jsonb);
end
$function$;
grant execute on function public.claim_notification_emails(integer,integer,integer) to service_role;
