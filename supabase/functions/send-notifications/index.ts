// send-notifications: drains the notification email outbox (supabase/migrations/
// 20261130300000_notification_emails.sql). Called on a schedule with the service role key: by
// pg_cron + pg_net on a hosted project (docs/scheduled-functions.md), by the local backend's
// scheduler locally (supabase/schedule.toml). POST; anyone else gets 403.
//
// Each run claims emails (leased, so no other run takes them), sends each over SMTP and records it
// sent; an SMTP failure is recorded with backoff and the email is tried again by a later run.
// Secrets: SMTP_URL, MAIL_FROM, SITE_URL, and NOTIFICATION_EMAIL_INTERVAL_SECONDS (the shortest gap
// between two emails to one person, default 600). Body (optional): {"lease_seconds": n}, how long a
// claimed email stays this run's (default 600, longer than a function may run).
import { createClient } from 'npm:@supabase/supabase-js@2.119.0';
import { callerRole, env, json } from '../_shared/http.ts';
import { type EmailNotification, notificationMessage } from '../_shared/notification-email.ts';
import { sendMail } from '../_shared/smtp.ts';

/** Emails per claim, and how long a run keeps claiming before it leaves the rest to the next one. */
const EMAILS_AT_ONCE = 50;
const RUN_BUDGET_MS = 60_000;

interface ClaimedEmail {
  id: number;
  message_key: string;
  attempt: number;
  unsubscribe_token: string;
  to: string;
  name: string;
  notifications: EmailNotification[];
}

function seconds(name: string, fallback: number): number {
  const value = Deno.env.get(name);
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number of seconds, not "${value}"`);
  return Number(value);
}

Deno.serve(async (req) => {
  if (req.method !== 'POST') return json({ error: 'method_not_allowed' }, 405);
  if (callerRole(req) !== 'service_role') return json({ error: 'forbidden' }, 403);
  const body = await req.json().catch(() => ({}));
  const lease = Number.isInteger(body?.lease_seconds) && body.lease_seconds > 0 ? body.lease_seconds : 600;
  const interval = seconds('NOTIFICATION_EMAIL_INTERVAL_SECONDS', 600);
  // The first retry after a failure: a tenth of the interval (a minute by default), doubling.
  const retrySeconds = Math.max(1, Math.round(interval / 10));
  const from = env('MAIL_FROM');
  const siteUrl = env('SITE_URL');
  const smtpUrl = env('SMTP_URL');
  const admin = createClient(env('SUPABASE_URL'), env('SUPABASE_SERVICE_ROLE_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });

  const started = Date.now();
  let sent = 0;
  let failed = 0;
  while (Date.now() - started < RUN_BUDGET_MS) {
    const { data, error } = await admin.rpc('claim_notification_emails', {
      interval_seconds: interval,
      lease_seconds: lease,
      max_emails: EMAILS_AT_ONCE,
    });
    if (error) return json({ error: 'claim_failed', message: error.message, sent, failed }, 502);
    const emails = (data ?? []) as ClaimedEmail[];
    for (const email of emails) {
      if (email.notifications.length === 0 || !email.to) {
        // Everything it listed is gone (the person left, or the task): nothing to say.
        await admin.rpc('notification_email_sent', { email_id: email.id });
        continue;
      }
      const message = notificationMessage({
        to: email.to,
        name: email.name,
        notifications: email.notifications,
        messageKey: email.message_key,
        unsubscribeToken: email.unsubscribe_token,
        siteUrl,
        from,
      });
      try {
        await sendMail(smtpUrl, { from, to: email.to, ...message });
      } catch (failure) {
        failed += 1;
        const reason = (failure as Error).message;
        console.error(`notification email ${email.id} (try ${email.attempt}) failed: ${reason}`);
        const marked = await admin.rpc('notification_email_failed', {
          email_id: email.id,
          error: reason,
          retry_seconds: retrySeconds,
        });
        if (marked.error)
          return json({ error: 'record_failed', message: marked.error.message, sent, failed }, 502);
        continue;
      }
      const marked = await admin.rpc('notification_email_sent', { email_id: email.id });
      if (marked.error)
        return json({ error: 'record_failed', message: marked.error.message, sent, failed }, 502);
      sent += 1;
    }
    if (emails.length < EMAILS_AT_ONCE) break;
  }
  return json({ sent, failed });
});
