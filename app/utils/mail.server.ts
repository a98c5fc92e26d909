// The app's own emails (invitations; auth emails are the backend's). Sent over SMTP to whatever
// SMTP_URL names: the local mailbox in development and tests, any provider in production.
import nodemailer, { type Transporter } from 'nodemailer';
import { config } from './env.server.ts';

export interface InvitationEmail {
  to: string;
  inviter: string;
  workspace: string;
  role: string;
  link: string;
  expiresAt: Date;
}

let transport: { url: string; transporter: Transporter } | null = null;

function transporter(): Transporter | null {
  const url = config().smtpUrl;
  if (!url) return null;
  if (transport?.url !== url) {
    // Short timeouts: a stuck SMTP server must not hold the inviter's request for minutes.
    const transporter = nodemailer.createTransport({
      url,
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 10_000,
    });
    transport = { url, transporter };
  }
  return transport.transporter;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function invitationMessage(mail: InvitationEmail) {
  const until = mail.expiresAt.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const article = /^[aeiou]/.test(mail.role) ? 'an' : 'a';
  const subject = `${mail.inviter} invited you to ${mail.workspace} on Crewboard`;
  const text = [
    `${mail.inviter} invited you to join the workspace “${mail.workspace}” on Crewboard as ${article} ${mail.role}.`,
    '',
    `Accept the invitation: ${mail.link}`,
    '',
    `The link works until ${until} and only for ${mail.to}. If you weren't expecting it, ignore this email.`,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #0f172a; line-height: 1.5">
<p><strong>${escapeHtml(mail.inviter)}</strong> invited you to join the workspace <strong>${escapeHtml(mail.workspace)}</strong> on Crewboard as ${article} ${escapeHtml(mail.role)}.</p>
<p><a href="${escapeHtml(mail.link)}" style="display: inline-block; padding: 8px 16px; background: #0f172a; color: #fff; border-radius: 6px; text-decoration: none">Accept the invitation</a></p>
<p style="color: #475569; font-size: 14px">The link works until ${until} and only for ${escapeHtml(mail.to)}. If you weren't expecting it, ignore this email.</p>
</body></html>`;
  return { subject, text, html };
}

/** `sent` when the SMTP server took the message; `unconfigured` without SMTP_URL; `failed` otherwise. */
export async function sendInvitationEmail(
  mail: InvitationEmail,
): Promise<'sent' | 'unconfigured' | 'failed'> {
  const smtp = transporter();
  if (!smtp) return 'unconfigured';
  try {
    await smtp.sendMail({
      from: config().mailFrom,
      to: mail.to,
      ...invitationMessage(mail),
    });
    return 'sent';
  } catch (error) {
    console.warn(`Invitation email to ${mail.to} failed: ${(error as Error).message}`);
    return 'failed';
  }
}
