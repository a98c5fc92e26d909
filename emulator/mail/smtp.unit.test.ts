import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailbox, type Mailbox } from './mailbox.ts';
import { decodeHeader, parseAddresses, readMessage } from './mime.ts';
import { startSmtp, type SmtpListener } from './smtp.ts';

describe('reading a raw message', () => {
  it('decodes encoded words, folded headers, quoted-printable and base64 parts', () => {
    const raw = Buffer.from(
      [
        'From: =?UTF-8?Q?Ad=C3=A1?= <ada@example.com>',
        'To: "Lovelace, G." <grace@example.com>,',
        ' linus@example.com',
        'Subject: =?UTF-8?B?Sm9pbiDigJxOb3J0aHdpbmTigJ0=?=',
        'MIME-Version: 1.0',
        'Content-Type: multipart/alternative; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'Caf=C3=A9 link: https://example.com/invite/abc=',
        'def',
        '--b1',
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('<p>Café <a href="https://example.com/invite/abcdef">Join</a></p>').toString('base64'),
        '--b1--',
        '',
      ].join('\r\n'),
    );
    const mail = readMessage(raw, { to: [] });
    expect(mail.from).toEqual({ Name: 'Adá', Address: 'ada@example.com' });
    expect(mail.to).toEqual([
      { Name: 'Lovelace, G.', Address: 'grace@example.com' },
      { Name: '', Address: 'linus@example.com' },
    ]);
    expect(mail.subject).toBe('Join “Northwind”');
    expect(mail.text).toBe('Café link: https://example.com/invite/abcdef');
    expect(mail.html).toContain('href="https://example.com/invite/abcdef"');
  });

  it('falls back to the envelope when the message names no recipient, and skips attachments', () => {
    const raw = Buffer.from(
      [
        'Subject: hi',
        'Content-Type: multipart/mixed; boundary=x',
        '',
        '--x',
        'Content-Type: text/plain',
        'Content-Disposition: attachment; filename=a.txt',
        '',
        'not the body',
        '--x',
        'Content-Type: text/plain',
        '',
        'the body',
        '--x--',
      ].join('\n'),
    );
    const mail = readMessage(raw, { from: 'app@example.com', to: ['bcc@example.com'] });
    expect(mail.to).toEqual([{ Name: '', Address: 'bcc@example.com' }]);
    expect(mail.from.Address).toBe('app@example.com');
    expect(mail.text).toBe('the body');
  });

  it('leaves plain header text alone', () => {
    expect(decodeHeader('Plain subject = ok?')).toBe('Plain subject = ok?');
    expect(parseAddresses(undefined)).toEqual([]);
  });
});

describe('the SMTP listener', () => {
  let mailbox: Mailbox;
  let smtp: SmtpListener;
  beforeAll(async () => {
    mailbox = await startMailbox({ port: 0 });
    smtp = await startSmtp({ port: 0, deliver: (mail) => mailbox.deliver(mail) });
  });
  afterAll(async () => {
    await smtp.close();
    await mailbox.close();
  });

  it('delivers what nodemailer sends into the mailbox, readable through the API', async () => {
    const transport = nodemailer.createTransport(smtp.url);
    await transport.sendMail({
      from: { name: 'Crewboard', address: 'no-reply@crewboard.test' },
      to: 'grace@example.com',
      subject: 'Ada invited you to “Northwind” on Crewboard',
      text: 'Open https://example.com/invite/tok to join. '.repeat(5),
      html: '<p>Open <a href="https://example.com/invite/tok">the invitation</a>.</p>',
    });
    const response = await fetch(`${mailbox.url}/api/v1/message/latest`);
    const message = (await response.json()) as { Subject: string; To: unknown; Text: string; HTML: string };
    expect(message.Subject).toBe('Ada invited you to “Northwind” on Crewboard');
    expect(message.To).toEqual([{ Name: '', Address: 'grace@example.com' }]);
    expect(message.Text).toContain('https://example.com/invite/tok to join.');
    expect(message.HTML).toContain('href="https://example.com/invite/tok"');
  });

  it('keeps the message’s own Message-ID and its one-click unsubscribe, as Mailpit shows them', async () => {
    const transport = nodemailer.createTransport(smtp.url);
    await transport.sendMail({
      from: 'no-reply@crewboard.test',
      to: 'grace@example.com',
      subject: 'Digest',
      text: 'Unsubscribe: https://example.com/unsubscribe/t',
      messageId: '<notifications.abc@crewboard.test>',
      headers: {
        'List-Unsubscribe': '<https://example.com/unsubscribe/t>, <mailto:u@crewboard.test>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    const message = (await (await fetch(`${mailbox.url}/api/v1/message/latest`)).json()) as {
      MessageID: string;
      ListUnsubscribe: { Links: string[]; HeaderPost: string };
    };
    expect(message.MessageID).toBe('notifications.abc@crewboard.test');
    expect(message.ListUnsubscribe.Links).toEqual([
      'https://example.com/unsubscribe/t',
      'mailto:u@crewboard.test',
    ]);
    expect(message.ListUnsubscribe.HeaderPost).toBe('List-Unsubscribe=One-Click');
  });

  it('refuses a message over 1 MB', async () => {
    const transport = nodemailer.createTransport(smtp.url);
    const before = mailbox.messages().length;
    await expect(
      transport.sendMail({ from: 'a@example.com', to: 'b@example.com', text: 'x'.repeat(1_200_000) }),
    ).rejects.toThrow(/552|size/i);
    expect(mailbox.messages()).toHaveLength(before);
  });
});
