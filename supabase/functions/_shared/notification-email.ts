// The notification email: one message listing a person's unread notifications, with a stable
// Message-ID per email (a retry is the same message) and a one-click unsubscribe (RFC 8058:
// List-Unsubscribe with an https URI, List-Unsubscribe-Post, and the link in the body). Every value
// from the database is escaped in the HTML and kept on one line in headers.
import { escapeHtml } from './invitation-email.ts';

export interface EmailNotification {
  kind: string;
  data: Record<string, unknown>;
  created_at: string;
  actor: string;
  workspace: { name: string; slug: string };
  /** The path in the app it links to: /w/<slug>/p/<project>/t/<number>, or the workspace. */
  path: string;
}

export interface NotificationEmail {
  to: string;
  name: string;
  notifications: EmailNotification[];
  /** The Message-ID's left-hand side, the same for every try of this email. */
  messageKey: string;
  unsubscribeToken: string;
  siteUrl: string;
  /** MAIL_FROM: its address's domain ends the Message-ID. */
  from: string;
}

export interface BuiltMessage {
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
}

const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

const stringAt = (data: Record<string, unknown>, key: string, inner?: string): string => {
  const value = inner ? (data[key] as Record<string, unknown> | undefined)?.[inner] : data[key];
  return typeof value === 'string' ? value : '';
};

/** One line saying who did what, e.g. “Ada assigned you CRW-3 Fix the login”. */
export function describe(n: EmailNotification): string {
  const task = [stringAt(n.data, 'task', 'ref'), stringAt(n.data, 'task', 'title')].filter(Boolean).join(' ');
  switch (n.kind) {
    case 'assigned':
      return `${n.actor} assigned you ${task}`;
    case 'mentioned':
      return `${n.actor} mentioned you on ${task}`;
    case 'commented':
      return `${n.actor} commented on ${task}`;
    case 'status_changed': {
      const move = [stringAt(n.data, 'from'), stringAt(n.data, 'to')].filter(Boolean).join(' → ');
      return `${n.actor} moved ${task}${move ? ` (${move})` : ''}`;
    }
    case 'added_to_workspace':
      return `${n.actor} added you to ${stringAt(n.data, 'workspace', 'name') || n.workspace.name}`;
    default:
      return `${n.actor}: ${n.kind}`;
  }
}

function domainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const domain = address.split('@')[1]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9.-]+$/.test(domain) ? domain : 'crewboard.invalid';
}

export function notificationMessage(mail: NotificationEmail): BuiltMessage {
  const site = mail.siteUrl.replace(/\/$/, '');
  const unsubscribe = `${site}/unsubscribe/${encodeURIComponent(mail.unsubscribeToken)}`;
  const preferences = `${site}/account/notifications`;
  const count = mail.notifications.length;
  const lines = mail.notifications.map((n) => {
    const excerpt = oneLine(stringAt(n.data, 'excerpt'));
    return { what: oneLine(describe(n)), where: n.workspace.name, excerpt, link: `${site}${n.path}` };
  });
  const subject = oneLine(
    count === 1 ? (lines[0]?.what ?? 'A new notification') : `${count} new notifications on Crewboard`,
  );
  const text = [
    mail.name ? `Hi ${oneLine(mail.name)},` : 'Hi,',
    '',
    count === 1
      ? 'Here is what happened on Crewboard:'
      : `Here are ${count} things that happened on Crewboard:`,
    '',
    ...lines.flatMap((l) => [
      `- ${l.what} (${l.where})`,
      ...(l.excerpt ? [`  “${l.excerpt}”`] : []),
      `  ${l.link}`,
    ]),
    '',
    `All your notifications: ${site}/inbox`,
    `Choose what you get by email: ${preferences}`,
    `Unsubscribe from these emails: ${unsubscribe}`,
  ].join('\n');
  const items = lines
    .map(
      (l) =>
        `<li style="margin: 0 0 12px"><a href="${escapeHtml(l.link)}">${escapeHtml(l.what)}</a> <span style="color: #475569">(${escapeHtml(l.where)})</span>${
          l.excerpt ? `<br><span style="color: #475569">“${escapeHtml(l.excerpt)}”</span>` : ''
        }</li>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #0f172a; line-height: 1.5">
<p>${mail.name ? `Hi ${escapeHtml(oneLine(mail.name))},` : 'Hi,'}</p>
<p>${count === 1 ? 'Here is what happened on Crewboard:' : `Here are ${count} things that happened on Crewboard:`}</p>
<ul style="padding-left: 20px">
${items}
</ul>
<p><a href="${escapeHtml(`${site}/inbox`)}">All your notifications</a></p>
<p style="color: #475569; font-size: 14px">You get these emails because of your notification settings. <a href="${escapeHtml(preferences)}">Choose what you get by email</a> or <a href="${escapeHtml(unsubscribe)}">unsubscribe</a>.</p>
</body></html>`;
  return {
    subject,
    text,
    html,
    messageId: `<${mail.messageKey}@${domainOf(mail.from)}>`,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
