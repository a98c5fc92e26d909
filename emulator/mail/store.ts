// The messages the mailbox holds, as Mailpit stores and summarises them (axllent/mailpit
// internal/storage): ids, snippets, sizes and the summary rows of its API.
import { randomBytes } from 'node:crypto';
import { type Address, type OutgoingMail, htmlToText } from '../lib/mail.ts';

export interface StoredMail {
  ID: string;
  MessageID: string;
  Created: string;
  Subject: string;
  From: Address;
  To: Address[];
  Text: string;
  HTML: string;
  Snippet: string;
  /** Mailpit's ListUnsubscribe: the header, its https/mailto links, and List-Unsubscribe-Post. */
  ListUnsubscribe: { Header: string; Links: string[]; Errors: string; HeaderPost: string };
}

const SNIPPET_LENGTH = 250;

export interface Entry {
  mail: StoredMail;
  size: number;
  /** Lower-cased body text for search: the text part, or the HTML's text when there is none. */
  searchText: string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomId(length = 22): string {
  const bytes = randomBytes(length * 2);
  let id = '';
  for (const byte of bytes) {
    if (byte >= 248) continue; // 248 = 62 * 4: keeps the distribution uniform
    id += BASE62[byte % 62];
    if (id.length === length) return id;
  }
  return id + randomId(length - id.length);
}

function address(value: Partial<Address> | undefined): Address {
  return { Name: String(value?.Name ?? ''), Address: String(value?.Address ?? '') };
}

export function formatAddress(a: Address): string {
  return a.Name ? `${a.Name} <${a.Address}>` : a.Address;
}

function snippetOf(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > SNIPPET_LENGTH ? `${collapsed.slice(0, SNIPPET_LENGTH).trimEnd()}…` : collapsed;
}

// Approximate size of the message as it would travel over SMTP.
function sizeOf(mail: StoredMail): number {
  const headers = [
    `Message-ID: <${mail.MessageID}>`,
    `Date: ${new Date(mail.Created).toUTCString()}`,
    `From: ${formatAddress(mail.From)}`,
    `To: ${mail.To.map(formatAddress).join(', ')}`,
    `Subject: ${mail.Subject}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="x"',
  ].join('\r\n');
  return Buffer.byteLength(headers) + Buffer.byteLength(mail.Text) + Buffer.byteLength(mail.HTML) + 200;
}

export function summary(entry: Entry) {
  const m = entry.mail;
  return {
    ID: m.ID,
    MessageID: m.MessageID,
    Created: m.Created,
    Subject: m.Subject,
    From: m.From,
    To: m.To,
    Snippet: m.Snippet,
    Read: false,
    Size: entry.size,
  };
}

/** The message as stored, with what search and the listing need. */
export function store(mail: OutgoingMail): Entry {
  const id = randomId();
  const text = String(mail.text ?? '');
  const html = String(mail.html ?? '');
  const bodyText = text || htmlToText(html);
  const stored: StoredMail = {
    ID: id,
    // The message's own Message-ID, as Mailpit keeps it; one of the mailbox's making without.
    MessageID: mail.messageId ?? `${id}@mailbox.local`,
    Created: new Date().toISOString(),
    Subject: String(mail.subject ?? ''),
    From: address(mail.from),
    To: (mail.to ?? []).map(address),
    Text: text,
    HTML: html,
    Snippet: snippetOf(bodyText),
    ListUnsubscribe: {
      Header: mail.listUnsubscribe?.header ?? '',
      Links: [...(mail.listUnsubscribe?.header ?? '').matchAll(/<([^<>]+)>/g)].map((m) => m[1] ?? ''),
      Errors: '',
      HeaderPost: mail.listUnsubscribe?.post ?? '',
    },
  };
  return { mail: stored, size: sizeOf(stored), searchText: bodyText.toLowerCase() };
}
