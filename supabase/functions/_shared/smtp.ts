// Email over SMTP to the server the SMTP_URL secret names (smtp://user:pass@host:587, smtps://…:465),
// from the MAIL_FROM secret: the one sender of all the project's mail, auth's emails included.
// @ts-types="npm:@types/nodemailer@8.0.2"
import nodemailer from 'npm:nodemailer@10.6.0';
import { env } from './http.ts';

export interface Mail {
  /** MAIL_FROM unless given. */
  from?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<local@domain>`: the same on every try of one email, so receivers can tell a resend. */
  messageId?: string;
  /** Extra headers (List-Unsubscribe…). */
  headers?: Record<string, string>;
}

let transport: { url: string; send: ReturnType<typeof nodemailer.createTransport> } | null = null;

export async function sendMail(url: string, mail: Mail): Promise<void> {
  if (transport?.url !== url) {
    // Short timeouts: a stuck SMTP server must not hold the inviter's request for minutes.
    transport = {
      url,
      send: nodemailer.createTransport({
        url,
        connectionTimeout: 5_000,
        greetingTimeout: 5_000,
        socketTimeout: 10_000,
      }),
    };
  }
  await transport.send.sendMail({ ...mail, from: mail.from ?? env('MAIL_FROM') });
}
