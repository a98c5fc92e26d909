// Reads an RFC 5322 message as mail clients send it over SMTP: folded headers, RFC 2047 encoded
// words, nested multipart bodies, quoted-printable and base64, any charset TextDecoder knows.
// Only what the mailbox shows is extracted: sender, recipients, subject, the text and HTML parts.
import type { Address, OutgoingMail } from '../lib/mail.ts';

interface Part {
  headers: Map<string, string>;
  body: Buffer;
}

function splitHead(raw: Buffer): Part {
  const text = raw.toString('latin1');
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  const [end, gap] =
    crlf !== -1 && (lf === -1 || crlf < lf) ? [crlf, 4] : lf !== -1 ? [lf, 2] : [text.length, 0];
  const headers = new Map<string, string>();
  const unfolded = text.slice(0, end).replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // The first occurrence wins, as for Subject and From in every client.
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body: raw.subarray(Math.min(raw.length, end + gap)) };
}

function decodeText(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function quotedPrintable(input: string): Buffer {
  const soft = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(soft.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** Header values header-encoded as =?charset?B|Q?…?= (RFC 2047), header bytes read as UTF-8. */
export function decodeHeader(value: string): string {
  const utf8 = decodeText(Buffer.from(value, 'latin1'));
  return utf8
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, data: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : quotedPrintable(data.replace(/_/g, ' '));
      return decodeText(bytes, charset);
    });
}

/** `type/subtype; key="value"` → the lower-cased type and its parameters. */
function parseContentType(value = 'text/plain'): { type: string; params: Map<string, string> } {
  const [type = 'text/plain', ...rest] = value.split(';');
  const params = new Map<string, string>();
  for (const piece of rest) {
    const eq = piece.indexOf('=');
    if (eq === -1) continue;
    params.set(
      piece.slice(0, eq).trim().toLowerCase(),
      piece
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeBody(part: Part): Buffer {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.toString('latin1').replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return quotedPrintable(part.body.toString('latin1'));
  return part.body;
}

function collectBodies(part: Part, found: { text?: string; html?: string }, depth = 0): void {
  const { type, params } = parseContentType(part.headers.get('content-type'));
  const boundary = params.get('boundary');
  if (type.startsWith('multipart/') && boundary && depth < 10) {
    const body = part.body.toString('latin1');
    const delimiter = `--${boundary}`;
    const pieces = body.split(delimiter).slice(1);
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      const content = piece.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n$/, '');
      collectBodies(splitHead(Buffer.from(content, 'latin1')), found, depth + 1);
    }
    return;
  }
  if ((part.headers.get('content-disposition') ?? '').toLowerCase().startsWith('attachment')) return;
  if (type === 'text/plain' && found.text === undefined)
    found.text = decodeText(decodeBody(part), params.get('charset'));
  if (type === 'text/html' && found.html === undefined)
    found.html = decodeText(decodeBody(part), params.get('charset'));
}

/** `Ada <ada@example.com>, "Lovelace, A." <a@example.com>, b@example.com` */
export function parseAddresses(value: string | undefined): Address[] {
  if (!value) return [];
  const list: Address[] = [];
  for (const item of decodeHeader(value).match(/(?:"[^"]*"|[^,])+/g) ?? []) {
    const angle = /^(.*)<([^>]+)>\s*$/.exec(item.trim());
    const address = (angle?.[2] ?? item).trim();
    if (!address) continue;
    const name = (angle?.[1] ?? '').trim().replace(/^"(.*)"$/, '$1');
    list.push({ Name: name, Address: address });
  }
  return list;
}

/**
 * The parts of a raw message the mailbox stores. `envelope` recipients stand in when the message
 * names none (Bcc-only mail).
 */
export function readMessage(raw: Buffer, envelope: { from?: string; to: string[] }): OutgoingMail {
  const top = splitHead(raw);
  const found: { text?: string; html?: string } = {};
  collectBodies(top, found);
  const from = parseAddresses(top.headers.get('from'))[0] ?? { Name: '', Address: envelope.from ?? '' };
  const headerTo = parseAddresses(top.headers.get('to'));
  const messageId = /<([^<>\s]+)>/.exec(top.headers.get('message-id') ?? '')?.[1];
  const unsubscribe = top.headers.get('list-unsubscribe');
  return {
    ...(messageId ? { messageId } : {}),
    ...(unsubscribe
      ? { listUnsubscribe: { header: unsubscribe, post: top.headers.get('list-unsubscribe-post') ?? '' } }
      : {}),
    from,
    to: headerTo.length > 0 ? headerTo : envelope.to.map((address) => ({ Name: '', Address: address })),
    subject: decodeHeader(top.headers.get('subject') ?? ''),
    text: found.text ?? '',
    html: found.html ?? '',
  };
}
