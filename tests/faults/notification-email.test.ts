// Notification email end to end on a backend of its own: notifications (written here as the
// database's own triggers would write them) go through the outbox, the send-notifications Edge
// Function and SMTP into the local mailbox. The function's SMTP goes through a gate this file
// controls, so SMTP can be down, or hold a message while the function is killed mid-batch. The
// interval between two emails to one person is shortened to 3 s; the schedule is off, and each run
// is a call here, as pg_cron would make it.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { createClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../emulator/backend.ts';
import { freePort } from '../../emulator/lib/net.ts';
import { sql as sqlAt } from '../support/db.ts';
import { startPrivateBackend } from '../support/private-backend.ts';
import { until } from '../support/until.ts';

const INTERVAL_SECONDS = 3;

/** A TCP gate in front of the mailbox's SMTP: up, down (connections dropped), or holding from the nth. */
interface Gate {
  url: string;
  target: number;
  mode: 'up' | 'down';
  /** Connections after this many passed are held open, unanswered; null: none held. */
  passBeforeHolding: number | null;
  connections: number;
  held: net.Socket[];
  close(): Promise<void>;
}

async function startGate(): Promise<Gate> {
  const port = await freePort();
  const gate: Gate = {
    url: `smtp://127.0.0.1:${port}`,
    target: 0,
    mode: 'up',
    passBeforeHolding: null,
    connections: 0,
    held: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    gate.connections += 1;
    if (gate.mode === 'down') {
      socket.destroy();
      return;
    }
    if (gate.passBeforeHolding !== null && gate.connections > gate.passBeforeHolding) {
      gate.held.push(socket);
      return;
    }
    const upstream = net.connect(gate.target, '127.0.0.1');
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const close = gate.close;
  gate.close = async () => {
    for (const socket of open) socket.destroy();
    await close();
  };
  return gate;
}

let backend: Backend;
let gate: Gate;
let workspace: string;
let actor: string;

const sql = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  sqlAt<R>(text, values, { url: backend.dbUrl });

interface MailSummary {
  ID: string;
  MessageID: string;
  Subject: string;
  To: Array<{ Address: string }>;
}
interface MailMessage extends MailSummary {
  Text: string;
  HTML: string;
  ListUnsubscribe: { Header: string; Links: string[]; HeaderPost: string };
}

async function mailTo(email: string): Promise<MailMessage[]> {
  const res = await fetch(`${backend.mailUrl}/api/v1/messages?limit=1000`);
  const list = (await res.json()) as { messages: MailSummary[] };
  const mine = list.messages.filter((m) => m.To.some((to) => to.Address === email));
  return Promise.all(
    mine.map(
      async (m) => (await (await fetch(`${backend.mailUrl}/api/v1/message/${m.ID}`)).json()) as MailMessage,
    ),
  );
}

async function person(tag: string): Promise<{ id: string; email: string }> {
  const admin = createClient(backend.apiUrl, backend.serviceRoleKey, { auth: { persistSession: false } });
  const email = `${tag}-${randomUUID().slice(0, 8)}@example.test`;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password: 'a-long-password-1',
    email_confirm: true,
    user_metadata: { display_name: tag },
  });
  if (error) throw error;
  await sql(`insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`, [
    workspace,
    data.user.id,
  ]);
  return { id: data.user.id, email };
}

/** A notification, as notify's triggers write one. */
async function notify(recipient: string, title: string, kind = 'assigned', ws = workspace): Promise<number> {
  const [row] = await sql<{ id: number }>(
    `insert into public.notifications (recipient_id, workspace_id, actor_id, kind, data)
     values ($1, $2, $3, $4, jsonb_build_object('task', jsonb_build_object('ref', 'NE-1', 'title', $5::text)))
     returning id`,
    [recipient, ws, actor, kind, title],
  );
  return Number(row?.id);
}

/** One run of the function, as the schedule calls it. */
async function run(body: Record<string, unknown> = { lease_seconds: 2 }) {
  const res = await fetch(`${backend.apiUrl}/functions/v1/send-notifications`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${backend.serviceRoleKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { sent: number; failed: number };
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  gate = await startGate();
  backend = await startPrivateBackend('notify-email', {
    NOTIFICATION_EMAIL_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
    NOTIFICATION_SCHEDULE_SECONDS: '0',
    FUNCTIONS_SMTP_URL: gate.url,
  });
  gate.target = Number(new URL(backend.smtpUrl).port);
  const [ws] = await sql<{ id: string }>(
    `insert into public.workspaces (name, slug) values ('Acme', $1) returning id`,
    [`acme-${randomUUID().slice(0, 8)}`],
  );
  workspace = ws?.id ?? '';
  actor = (await person('ada')).id;
  // The first call boots the function.
  await run();
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  await gate?.close();
});

describe('send-notifications', () => {
  it('answers 403 to anyone but the service role, and the claim RPCs are the service role’s alone', async () => {
    const res = await fetch(`${backend.apiUrl}/functions/v1/send-notifications`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${backend.anonKey}` },
    });
    expect(res.status).toBe(403);
    const anon = createClient(backend.apiUrl, backend.anonKey, { auth: { persistSession: false } });
    for (const [fn, args] of [
      ['claim_notification_emails', {}],
      ['notification_email_sent', { email_id: 1 }],
      ['notification_email_failed', { email_id: 1, error: 'x' }],
    ] as const) {
      const { error } = await anon.rpc(fn, args as never);
      expect(error?.code, fn).toBe('42501');
    }
  });

  it('sends one email per person, then waits the interval, then one listing what came meanwhile', async () => {
    const grace = await person('grace');
    await notify(grace.id, 'First');
    expect((await run()).sent).toBe(1);
    const [first] = await mailTo(grace.email);
    expect(first?.Subject).toBe('ada assigned you NE-1 First');
    const sentAt = Date.now();

    await notify(grace.id, 'Second');
    await notify(grace.id, 'Third');
    // Read already, archived by her, a kind she does not want by email, a workspace she left: not sent.
    const read = await notify(grace.id, 'Read already');
    await sql('update public.notifications set read_at = now() where id = $1', [read]);
    const archived = await notify(grace.id, 'Archived');
    await sql(`update public.notifications set archived_at = now() + interval '1 second' where id = $1`, [
      archived,
    ]);
    const [left] = await sql<{ id: string }>(
      `insert into public.workspaces (name, slug) values ('Left', $1) returning id`,
      [`left-${randomUUID().slice(0, 8)}`],
    );
    await notify(grace.id, 'In a workspace she left', 'assigned', left?.id);
    await sql(
      `insert into public.notification_preferences (user_id, email_kinds) values ($1, '{assigned,mentioned}')`,
      [grace.id],
    );
    await notify(grace.id, 'A move', 'status_changed');

    expect((await run()).sent).toBe(0);
    expect(await mailTo(grace.email)).toHaveLength(1);
    await sleep(Math.max(0, sentAt + INTERVAL_SECONDS * 1000 - Date.now()));
    await until('the second email', async () => ((await run()).sent === 1 ? true : undefined), 10_000);
    const mails = await mailTo(grace.email);
    expect(mails).toHaveLength(2);
    const second = mails.find((m) => m.ID !== first?.ID);
    expect(second?.Subject).toBe('2 new notifications on Crewboard');
    expect(second?.Text).toMatch(/NE-1 Second/);
    expect(second?.Text).toMatch(/NE-1 Third/);
    for (const not of ['First', 'Read already', 'Archived', 'she left', 'A move'])
      expect(second?.Text).not.toContain(not);
    expect(second?.MessageID).not.toBe(first?.MessageID);
  });

  it('keeps hourly and daily people to one email an hour or a day', async () => {
    const hourly = await person('hourly');
    await sql(
      `insert into public.notification_preferences (user_id, email_frequency) values ($1, 'hourly')`,
      [hourly.id],
    );
    await notify(hourly.id, 'One');
    expect((await run()).sent).toBe(1);
    await notify(hourly.id, 'Two');
    await sleep(INTERVAL_SECONDS * 1000 + 200);
    expect((await run()).sent).toBe(0);
    expect(await mailTo(hourly.email)).toHaveLength(1);
    // An hour later (dated back), it goes.
    await sql(
      `update private.notification_email_state set last_sent_at = now() - interval '61 minutes' where user_id = $1`,
      [hourly.id],
    );
    expect((await run()).sent).toBe(1);
    expect(await mailTo(hourly.email)).toHaveLength(2);
  });

  it('drains the outbox once when the function is killed mid-batch: no email lost, none twice', async () => {
    const people = await Promise.all(['p1', 'p2', 'p3', 'p4', 'p5'].map((tag) => person(tag)));
    for (const p of people) await notify(p.id, `For ${p.email}`);
    // Two messages go through; the third is held open, unanswered, while the function is killed.
    gate.connections = 0;
    gate.passBeforeHolding = 2;
    const killed = run({ lease_seconds: 3 }).catch(() => 'killed');
    await until('two emails through and a third held', async () => {
      const delivered = (await Promise.all(people.map((p) => mailTo(p.email)))).flat();
      return delivered.length === 2 && gate.held.length === 1 ? true : undefined;
    });
    const pid = await backend.functions.pid('send-notifications');
    expect(pid).toBeDefined();
    process.kill(pid ?? 0, 'SIGKILL');
    await killed;
    for (const socket of gate.held.splice(0)) socket.destroy();
    gate.passBeforeHolding = null;

    const ids = people.map((p) => p.id);
    const [state] = await sql<{ sent: number; leased: number }>(
      `select count(*) filter (where sent_at is not null)::int as sent,
              count(*) filter (where sent_at is null and leased_until > now())::int as leased
         from private.notification_emails where recipient_id = any ($1)`,
      [ids],
    );
    expect(state).toEqual({ sent: 2, leased: 3 });
    // While the dead run's lease lasts, nobody sends its emails.
    expect((await run()).sent).toBe(0);
    await until(
      'the lease to end and the rest to go',
      async () => ((await run()).sent === 3 ? true : undefined),
      15_000,
    );
    expect((await run()).sent).toBe(0);

    for (const p of people) {
      const mails = await mailTo(p.email);
      expect(mails, p.email).toHaveLength(1);
      expect(mails[0]?.Text).toContain(`For ${p.email}`);
    }
    const rows = await sql<{ n: number }>(
      `select count(*)::int as n from private.notification_emails where recipient_id = any ($1)`,
      [ids],
    );
    expect(rows[0]?.n).toBe(5);
  });

  it('tries again with backoff while SMTP is down, then delivers the same email once', async () => {
    const lin = await person('lin');
    await notify(lin.id, 'Despite the outage');
    gate.mode = 'down';
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    const [first] = await sql<{ attempts: number; wait: number; message_key: string }>(
      `select attempts, extract(epoch from next_attempt_at - now())::float as wait, message_key
         from private.notification_emails where recipient_id = $1`,
      [lin.id],
    );
    expect(first?.attempts).toBe(1);
    // A tenth of the interval, at least a second.
    expect(first?.wait).toBeGreaterThan(0);
    expect(first?.wait).toBeLessThanOrEqual(1);
    await until('the second try', async () => ((await run()).failed === 1 ? true : undefined));
    const [second] = await sql<{ attempts: number; wait: number }>(
      `select attempts, extract(epoch from next_attempt_at - now())::float as wait
         from private.notification_emails where recipient_id = $1`,
      [lin.id],
    );
    expect(second?.attempts).toBe(2);
    // Doubled.
    expect(second?.wait).toBeGreaterThan(1);
    expect(second?.wait).toBeLessThanOrEqual(2);
    expect(await mailTo(lin.email)).toHaveLength(0);

    gate.mode = 'up';
    await until('delivery once SMTP is back', async () => ((await run()).sent === 1 ? true : undefined));
    const mails = await mailTo(lin.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.Text).toContain('Despite the outage');
    expect(mails[0]?.MessageID).toMatch(new RegExp(`^${first?.message_key.replaceAll('.', '\\.')}@`));
    expect((await run()).sent).toBe(0);
  });
});

describe('one-click unsubscribe', () => {
  let mia: { id: string; email: string };
  let link: string;
  let token: string;
  const anon = () => createClient(backend.apiUrl, backend.anonKey, { auth: { persistSession: false } });
  const frequency = async (id: string) =>
    (
      await sql<{ email_frequency: string }>(
        'select email_frequency from public.notification_preferences where user_id = $1',
        [id],
      )
    )[0]?.email_frequency ?? 'instant';
  const unsubscribe = async (value: string, apply = true) =>
    (await anon().rpc('unsubscribe_notification_emails', { token: value, apply })).data;

  beforeAll(async () => {
    mia = await person('mia');
    await notify(mia.id, 'Before unsubscribing');
    expect((await run()).sent).toBe(1);
    const [mail] = await mailTo(mia.email);
    expect(mail?.ListUnsubscribe.HeaderPost).toBe('List-Unsubscribe=One-Click');
    link = mail?.ListUnsubscribe.Links[0] ?? '';
    expect(link).toMatch(/^http:\/\/[^/]+\/unsubscribe\//);
    expect(mail?.Text).toContain(link);
    expect(mail?.HTML).toContain(`href="${link}"`);
    token = decodeURIComponent(link.split('/unsubscribe/')[1] ?? '');
  });

  it('changes nothing for a tampered token, or one person’s secret with another’s id', async () => {
    const tampered = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    expect(await unsubscribe(tampered)).toBe('invalid');
    const other = await person('other');
    expect(await unsubscribe(`${other.id}.${token.split('.')[1]}`)).toBe('invalid');
    expect(await unsubscribe('')).toBe('invalid');
    expect(await unsubscribe(`${mia.id}.not-hex`)).toBe('invalid');
    expect(await frequency(mia.id)).toBe('instant');
    expect(await frequency(other.id)).toBe('instant');
  });

  it('changes nothing once expired', async () => {
    await sql(
      `update private.notification_unsubscribe_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
      [mia.id],
    );
    expect(await unsubscribe(token)).toBe('expired');
    expect(await frequency(mia.id)).toBe('instant');
    await sql(
      `update private.notification_unsubscribe_tokens set expires_at = now() + interval '1 day' where user_id = $1`,
      [mia.id],
    );
  });

  it('only says what it would do without apply, unsubscribes with it, and no email follows', async () => {
    expect(await unsubscribe(token, false)).toBe('valid');
    expect(await frequency(mia.id)).toBe('instant');
    expect(await unsubscribe(token)).toBe('unsubscribed');
    expect(await frequency(mia.id)).toBe('never');
    expect(await unsubscribe(token)).toBe('already');
    await notify(mia.id, 'After unsubscribing');
    await sleep(INTERVAL_SECONDS * 1000 + 200);
    expect((await run()).sent).toBe(0);
    expect(await mailTo(mia.email)).toHaveLength(1);
  });
});
