-- Notification email: an outbox in Postgres, drained by the send-notifications Edge Function (service
-- role) in batches of one email per person, and a one-click unsubscribe that needs no sign-in.
--
-- Flow. A notification row is queued in private.notification_outbox by a trigger in the transaction
-- that writes it, unless its recipient has email_frequency = 'never' or its kind is not in their
-- email_kinds. The function then calls claim_notification_emails, which:
--   1. hands back the emails already made but not yet sent whose retry time has come (a crash or an
--      SMTP failure: the same email, same Message-ID, same unsubscribe link);
--   2. for each person who is due — no email in the last gap (instant: the interval the caller passes,
--      NOTIFICATION_EMAIL_INTERVAL_SECONDS; hourly: an hour; daily: a day) and no email under way —
--      turns their queued notifications that are still worth telling (kind in email_kinds, not read,
--      not archived by them, still a member of the workspace; decided now, at send time) into one
--      email, and drops the rest from the queue.
-- Each claimed email is leased for `lease_seconds`: nobody else gets it meanwhile (rows claimed with
-- `for update skip locked`, so two runs never take the same person). The function sends it and calls
-- notification_email_sent, or notification_email_failed, which sets the next try with backoff.
-- A run killed before it sends leaves the email leased: it is handed out again once the lease ends.
-- The one window left: a run killed after the SMTP server accepted a message but before
-- notification_email_sent is recorded sends that email again after the lease, with the same
-- Message-ID (receiving servers that de-duplicate by Message-ID drop it).
--
-- Rows the inbox never shows: a kind that is only in email_kinds is written already archived
-- (archived_at set when it is written, so the inbox leaves it out); for those archived_at is not the
-- recipient's doing, so such rows count as unread for email.

create table private.notification_outbox (
  notification_id bigint primary key references public.notifications (id) on delete cascade,
  recipient_id uuid not null references auth.users (id) on delete cascade,
  queued_at timestamptz not null default now()
);

create index notification_outbox_recipient_idx on private.notification_outbox (recipient_id);

-- One row per person who has had mail queued: when their last email went.
create table private.notification_email_state (
  user_id uuid primary key references auth.users (id) on delete cascade,
  last_sent_at timestamptz
);

-- The emails: made at claim time, sent (sent_at), or given up after too many failures (gave_up_at).
create table private.notification_emails (
  id bigint generated always as identity primary key,
  recipient_id uuid not null references auth.users (id) on delete cascade,
  -- The Message-ID's left-hand side: the same for every try of this email.
  message_key text not null unique,
  notification_ids bigint[] not null,
  -- The unsubscribe link's token, kept in clear only until the email is sent (its hash stays in
  -- private.notification_unsubscribe_tokens).
  unsubscribe_token text,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  leased_until timestamptz,
  last_error text,
  sent_at timestamptz,
  gave_up_at timestamptz
);

-- At most one email under way per person.
create unique index notification_emails_open_idx on private.notification_emails (recipient_id)
  where sent_at is null and gave_up_at is null;
create index notification_emails_due_idx on private.notification_emails (next_attempt_at)
  where sent_at is null and gave_up_at is null;

-- Unsubscribe links: sha256 of the secret part, whose person, until when.
create table private.notification_unsubscribe_tokens (
  token_hash bytea primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);

create index notification_unsubscribe_tokens_user_idx on private.notification_unsubscribe_tokens (user_id);

-- How long an unsubscribe link works, and how many failed sends before an email is given up.
create function private.unsubscribe_link_lifetime() returns interval
language sql immutable set search_path = '' as $$ select interval '60 days' $$;
create function private.notification_email_max_attempts() returns integer
language sql immutable set search_path = '' as $$ select 12 $$;

-- The queue: new notifications that their recipient may want by email (one statement, one insert).
create function private.queue_notification_emails() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create trigger notifications_queue_email
  after insert on public.notifications
  referencing new table as added
  for each statement execute function private.queue_notification_emails();

-- One email as the function needs it: recipient, Message-ID key, unsubscribe token, and the
-- notifications still there (newest first) with who did it, where, and a link path into the app.
create function private.notification_email_json(e private.notification_emails) returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', e.id,
    'message_key', e.message_key,
    'attempt', e.attempts,
    'unsubscribe_token', e.unsubscribe_token,
    'to', u.email,
    'name', coalesce(pr.display_name, ''),
    'notifications', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', n.id,
               'kind', n.kind,
               'data', n.data,
               'created_at', n.created_at,
               'actor', coalesce(ap.display_name, 'Someone'),
               'workspace', jsonb_build_object('name', w.name, 'slug', w.slug),
               'path', case
                 when t.id is not null then format('/w/%s/p/%s/t/%s', w.slug, t.project_id, t.number)
                 else format('/w/%s', w.slug)
               end
             ) order by n.created_at desc, n.id desc)
        from public.notifications n
        join public.workspaces w on w.id = n.workspace_id
        left join public.tasks t on t.id = n.task_id and t.workspace_id = n.workspace_id
        left join public.profiles ap on ap.id = n.actor_id
       where n.id = any (e.notification_ids)
    ), '[]'::jsonb)
  )
    from auth.users u
    left join public.profiles pr on pr.id = u.id
   where u.id = e.recipient_id
$$;

-- The work of one run: due retries first, then new emails for people who are due. For the
-- send-notifications Edge Function (service role) only. Answers a JSON array of emails.
create function public.claim_notification_emails(
  interval_seconds integer default 600,
  lease_seconds integer default 600,
  max_emails integer default 50
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- The email went: it is done, and the person's gap starts now.
create function public.notification_email_sent(email_id bigint) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- The email did not go: try again after retry_seconds × 2^(attempts − 1), at most six hours;
-- after notification_email_max_attempts() tries it is given up (and the person may get new email).
create function public.notification_email_failed(email_id bigint, error text, retry_seconds integer default 60)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  update private.notification_emails e
     set leased_until = null,
         last_error = left(error, 1000),
         next_attempt_at = now() + least(
           make_interval(secs => greatest(retry_seconds, 1) * power(2, least(e.attempts - 1, 20))),
           interval '6 hours'
         ),
         gave_up_at = case when e.attempts >= private.notification_email_max_attempts() then now() end
   where e.id = email_id and e.sent_at is null
$$;

revoke execute on function public.claim_notification_emails(integer, integer, integer),
  public.notification_email_sent(bigint), public.notification_email_failed(bigint, text, integer)
  from public, anon, authenticated;
grant execute on function public.claim_notification_emails(integer, integer, integer),
  public.notification_email_sent(bigint), public.notification_email_failed(bigint, text, integer)
  to service_role;

-- One-click unsubscribe (RFC 8058), no sign-in: the token is `<user id>.<secret>`; only the
-- secret's hash is kept, so a token cannot be made for anyone, and one person's secret with another
-- person's id is no token at all. With apply = false it only says what the link would do (the
-- confirm page); with apply = true it sets the person's email_frequency to never.
-- Answers: 'valid' (apply = false), 'unsubscribed', 'already' (email was off), 'expired', 'invalid'.
create function public.unsubscribe_notification_emails(token text, apply boolean default false)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

revoke execute on function public.unsubscribe_notification_emails(text, boolean) from public;
grant execute on function public.unsubscribe_notification_emails(text, boolean) to anon, authenticated, service_role;
