// A small in-memory mail catcher. The local auth server hands every email to `deliver()`; people
// read them on a web page and tests read them through a Mailpit-compatible JSON API.
import http from 'node:http';
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
}

export interface Mailbox {
  /** Stores the message (newest first) and returns what was stored. */
  deliver(mail: OutgoingMail): StoredMail;
  /** All stored messages, newest first. */
  messages(): StoredMail[];
  /** Base URL of the web page and API, e.g. http://127.0.0.1:54324 */
  url: string;
  close(): Promise<void>;
}

export interface MailboxOptions {
  /** 0 picks a free port; `url` reports the real one. */
  port: number;
  host?: string;
  /** Most messages kept; the oldest are dropped beyond it. Default 1000. */
  limit?: number;
}

const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_PAGE_SIZE = 50;
const SNIPPET_LENGTH = 250;

interface Entry {
  mail: StoredMail;
  size: number;
  /** Lower-cased body text for search: the text part, or the HTML's text when there is none. */
  searchText: string;
}

// ---------------------------------------------------------------------------------------------
// Storage helpers

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

function formatAddress(a: Address): string {
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

function summary(entry: Entry) {
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

// ---------------------------------------------------------------------------------------------
// Search: Mailpit-style query terms, ANDed. `to:x`, `from:x`, `subject:x`, bare words, quoted
// phrases; a leading `-` or `!` negates a term.

interface Term {
  field: 'to' | 'from' | 'subject' | 'text';
  value: string;
  negate: boolean;
}

export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  const pattern = /([-!]?)(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g;
  for (let match = pattern.exec(query); match; match = pattern.exec(query)) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    const negate = match[1] !== '';
    const key = (match[2] ?? '').toLowerCase();
    const value = (match[3] ?? match[4] ?? '').toLowerCase();
    if (key === 'to' || key === 'from' || key === 'subject') {
      if (value) terms.push({ field: key, value, negate });
    } else {
      // An unknown key is searched for as plain text, key included.
      const word = key ? `${match[2]}:${value}` : value;
      if (word.trim()) terms.push({ field: 'text', value: word.toLowerCase(), negate });
    }
  }
  return terms;
}

function matches(entry: Entry, terms: Term[]): boolean {
  const mail = entry.mail;
  const addressText = (a: Address) => `${a.Name} <${a.Address}>`.toLowerCase();
  return terms.every((term) => {
    let hit: boolean;
    switch (term.field) {
      case 'to':
        hit = mail.To.some((a) => addressText(a).includes(term.value));
        break;
      case 'from':
        hit = addressText(mail.From).includes(term.value);
        break;
      case 'subject':
        hit = mail.Subject.toLowerCase().includes(term.value);
        break;
      default:
        hit = mail.Subject.toLowerCase().includes(term.value) || entry.searchText.includes(term.value);
    }
    return hit !== term.negate;
  });
}

// ---------------------------------------------------------------------------------------------
// HTML pages

const escapeHtml = (value: string): string =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src http: https: data:',
  "frame-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f7f9}
header{background:#fff;border-bottom:1px solid #e3e5e8;padding:12px 16px}
header a{color:inherit;text-decoration:none;font-weight:600}
main{max-width:960px;margin:0 auto;padding:16px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #e3e5e8;border-radius:8px;overflow:hidden}
th,td{text-align:left;padding:10px 12px;border-bottom:1px solid #eef0f2;vertical-align:top}
th{font-size:13px;color:#57606a;font-weight:600;background:#fafbfc}
tr:last-child td{border-bottom:0}
td a{color:#0b57d0;text-decoration:none;font-weight:500}
td a:hover{text-decoration:underline}
.muted{color:#6e7781;font-size:13px}
.time{white-space:nowrap}
.empty{background:#fff;border:1px dashed #d0d7de;border-radius:8px;padding:32px;text-align:center;color:#6e7781}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;background:#fff;border:1px solid #e3e5e8;border-radius:8px;padding:12px 16px;margin:0 0 16px}
dt{color:#57606a}
dd{margin:0;word-break:break-word}
h1{font-size:20px;margin:0 0 12px;word-break:break-word}
h2{font-size:15px;margin:20px 0 8px;color:#57606a}
iframe{width:100%;height:480px;border:1px solid #e3e5e8;border-radius:8px;background:#fff}
pre{white-space:pre-wrap;word-break:break-word;background:#fff;border:1px solid #e3e5e8;border-radius:8px;padding:12px;margin:0;font-size:13px}
ul.links{background:#fff;border:1px solid #e3e5e8;border-radius:8px;margin:0;padding:8px 8px 8px 28px}
ul.links a{word-break:break-all;color:#0b57d0}
footer{margin-top:24px}
code{background:#eef0f2;border-radius:4px;padding:1px 4px}
@media (max-width:600px){.hide-narrow{display:none}th,td{padding:8px}main{padding:8px}}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="/">Mailbox</a></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function formatTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function indexPage(entries: Entry[], baseUrl: string): string {
  const rows = entries
    .map(({ mail }) => {
      const to = mail.To.map(formatAddress).join(', ');
      return `<tr>
<td class="time"><time datetime="${escapeHtml(mail.Created)}">${escapeHtml(formatTime(mail.Created))}</time></td>
<td class="hide-narrow">${escapeHtml(to)}</td>
<td><a href="/view/${encodeURIComponent(mail.ID)}">${escapeHtml(mail.Subject || '(no subject)')}</a>
<div class="muted">${escapeHtml(to)}</div></td>
</tr>`;
    })
    .join('\n');
  const list = entries.length
    ? `<table>
<thead><tr><th>Time</th><th class="hide-narrow">To</th><th>Subject</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p class="empty">No messages yet. Emails sent by the local auth server show up here.</p>';
  return page(
    `Mailbox (${entries.length})`,
    `<h1>Messages <span class="muted">(${entries.length})</span></h1>
${list}
<footer class="muted">Reload to see new mail. JSON API: <code>${escapeHtml(baseUrl)}/api/v1/messages</code>; delete everything with <code>curl -X DELETE ${escapeHtml(baseUrl)}/api/v1/messages</code>.</footer>`,
  );
}

function linksIn(html: string): string[] {
  const found = new Set<string>();
  const pattern = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    const href = htmlToText(`<a href="x">${match[1] ?? match[2] ?? match[3] ?? ''}</a>`).replace(
      / \(x\)$/,
      '',
    );
    if (/^https?:\/\//i.test(href)) found.add(href);
  }
  return [...found];
}

// Makes links in the framed message open in a new tab, without pushing the doctype (quirks mode).
function withBaseTarget(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head\b[^>]*>/i.exec(html);
  if (head)
    return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + base + html.slice(doctype[0].length);
  return base + html;
}

function viewPage(entry: Entry): string {
  const m = entry.mail;
  const links = linksIn(m.HTML);
  const linkList = links.length
    ? `<h2>Links</h2>
<ul class="links">
${links.map((href) => `<li><a href="${escapeHtml(href)}" rel="noreferrer noopener" target="_blank">${escapeHtml(href)}</a></li>`).join('\n')}
</ul>`
    : '';
  // Links inside the message open in a new tab; the frame itself can run nothing.
  const frameDoc = withBaseTarget(m.HTML);
  const htmlPart = m.HTML
    ? `<h2>HTML</h2>
<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" title="Message body" srcdoc="${escapeHtml(frameDoc)}"></iframe>`
    : '';
  return page(
    m.Subject || '(no subject)',
    `<h1>${escapeHtml(m.Subject || '(no subject)')}</h1>
<dl>
<dt>From</dt><dd>${escapeHtml(formatAddress(m.From))}</dd>
<dt>To</dt><dd>${escapeHtml(m.To.map(formatAddress).join(', '))}</dd>
<dt>Date</dt><dd><time datetime="${escapeHtml(m.Created)}">${escapeHtml(formatTime(m.Created))}</time></dd>
<dt>ID</dt><dd>${escapeHtml(m.ID)}</dd>
</dl>
${linkList}
${htmlPart}
<h2>Text</h2>
<pre>${escapeHtml(m.Text)}</pre>`,
  );
}

// ---------------------------------------------------------------------------------------------
// HTTP

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(
  res: http.ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(body);
}

const API_HEADERS = { 'Access-Control-Allow-Origin': '*' };

function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), { ...API_HEADERS, ...headers });
}

function sendHtml(res: http.ServerResponse, status: number, html: string): void {
  send(res, status, 'text/html; charset=utf-8', html, {
    'Content-Security-Policy': PAGE_CSP,
    'Referrer-Policy': 'no-referrer',
  });
}

/** Reads a request body up to MAX_BODY_BYTES; rejects with HttpError(413) beyond it. */
function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      reject(new HttpError(413, 'request body too large'));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) {
        cleanup();
        reject(new HttpError(413, 'request body too large'));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Throws away whatever is left of a request body, but hangs up on clients that keep sending. */
function discardBody(req: http.IncomingMessage): void {
  let discarded = 0;
  req.on('error', () => {});
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > 16 * MAX_BODY_BYTES) req.socket.destroy();
  });
  req.resume();
}

function nonNegativeInt(value: string | null, fallback: number): number {
  if (value === null || !/^\d+$/.test(value)) return fallback;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : fallback;
}

export async function startMailbox(options: MailboxOptions): Promise<Mailbox> {
  const limit = Math.max(1, Math.floor(options.limit ?? 1000));
  const host = options.host ?? '127.0.0.1';
  let entries: Entry[] = []; // newest first
  let baseUrl = '';

  function find(id: string): Entry | undefined {
    if (id === 'latest') return entries[0];
    return entries.find((e) => e.mail.ID === id);
  }

  function listing(selected: Entry[], params: URLSearchParams) {
    const start = nonNegativeInt(params.get('start'), 0);
    const requested = nonNegativeInt(params.get('limit'), DEFAULT_PAGE_SIZE);
    const pageSize = requested > 0 ? requested : DEFAULT_PAGE_SIZE;
    const slice = selected.slice(start, start + pageSize);
    return {
      total: entries.length,
      unread: 0,
      count: slice.length,
      messages_count: selected.length,
      start,
      tags: [],
      messages: slice.map(summary),
    };
  }

  async function deleteMessages(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw: string;
    try {
      raw = await readBody(req);
    } catch (error) {
      if (error instanceof HttpError) {
        discardBody(req);
        sendJson(res, error.status, { error: error.message });
      } else {
        req.socket.destroy();
      }
      return;
    }
    let ids: string[] | null = null; // null: everything
    if (raw.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        sendJson(res, 400, { error: 'invalid JSON' });
        return;
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        sendJson(res, 400, { error: 'expected a JSON object like {"IDs": ["..."]}' });
        return;
      }
      const given = (parsed as Record<string, unknown>).IDs;
      if (given !== undefined && given !== null) {
        if (!Array.isArray(given) || !given.every((id) => typeof id === 'string')) {
          sendJson(res, 400, { error: 'IDs must be an array of strings' });
          return;
        }
        ids = given as string[];
      }
    }
    if (ids === null) {
      entries = [];
    } else {
      const doomed = new Set(ids);
      entries = entries.filter((e) => !doomed.has(e.mail.ID));
    }
    send(res, 200, 'text/plain; charset=utf-8', 'ok', API_HEADERS);
  }

  function route(req: http.IncomingMessage, res: http.ServerResponse): void {
    const method = req.method ?? 'GET';
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://mailbox.invalid');
    } catch {
      discardBody(req);
      sendJson(res, 400, { error: 'invalid URL' });
      return;
    }
    const path = url.pathname;
    const isRead = method === 'GET' || method === 'HEAD';

    if (method === 'DELETE' && path === '/api/v1/messages') {
      void deleteMessages(req, res).catch(() => {
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
        else res.destroy();
      });
      return;
    }

    const declared = Number(req.headers['content-length']);
    discardBody(req);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      sendJson(res, 413, { error: 'request body too large' });
      return;
    }

    const known =
      path === '/' ||
      path === '/api/v1/messages' ||
      path === '/api/v1/search' ||
      /^\/api\/v1\/message\/[^/]+$/.test(path) ||
      /^\/view\/[^/]+$/.test(path);
    if (!isRead) {
      const allow = path === '/api/v1/messages' ? 'GET, HEAD, DELETE' : 'GET, HEAD';
      sendJson(res, 405, { error: 'method not allowed' }, { Allow: allow });
      return;
    }
    if (!known) {
      sendJson(res, 404, { error: 'not found' });
      return;
    }

    if (path === '/') {
      sendHtml(res, 200, indexPage(entries, baseUrl));
      return;
    }
    if (path === '/api/v1/messages') {
      sendJson(res, 200, listing(entries, url.searchParams));
      return;
    }
    if (path === '/api/v1/search') {
      const terms = parseQuery(url.searchParams.get('query') ?? '');
      sendJson(
        res,
        200,
        listing(
          entries.filter((e) => matches(e, terms)),
          url.searchParams,
        ),
      );
      return;
    }

    let id: string;
    try {
      id = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
    } catch {
      id = '';
    }
    const entry = find(id);
    if (path.startsWith('/view/')) {
      if (!entry)
        sendHtml(
          res,
          404,
          page('Not found', '<h1>Message not found</h1><p><a href="/">Back to the mailbox</a></p>'),
        );
      else sendHtml(res, 200, viewPage(entry));
      return;
    }
    if (!entry) {
      send(res, 404, 'text/plain; charset=utf-8', 'message not found', API_HEADERS);
      return;
    }
    const m = entry.mail;
    sendJson(res, 200, {
      ID: m.ID,
      MessageID: m.MessageID,
      Created: m.Created,
      Subject: m.Subject,
      From: m.From,
      To: m.To,
      Cc: [],
      Bcc: [],
      ReplyTo: [],
      Text: m.Text,
      HTML: m.HTML,
      Size: entry.size,
      Attachments: [],
    });
  }

  const server = http.createServer((req, res) => {
    try {
      route(req, res);
    } catch {
      // Never let a bad request take the server down, and never show internals.
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(new Error(`Mailbox port ${options.port} on ${host} is already in use.`));
      } else if (error.code === 'EACCES') {
        reject(new Error(`Mailbox port ${options.port} on ${host} needs permissions this process lacks.`));
      } else {
        reject(new Error(`Mailbox could not listen on ${host}:${options.port}: ${error.message}`));
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ port: options.port, host });
  });
  // Errors after startup (e.g. from a single broken socket) must not crash the process.
  server.on('error', () => {});

  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : options.port;
  const urlHost =
    host === '0.0.0.0' || host === ''
      ? '127.0.0.1'
      : host === '::'
        ? '[::1]'
        : host.includes(':')
          ? `[${host}]`
          : host;
  baseUrl = `http://${urlHost}:${port}`;

  let closing: Promise<void> | null = null;

  return {
    url: baseUrl,
    deliver(mail: OutgoingMail): StoredMail {
      const id = randomId();
      const text = String(mail.text ?? '');
      const html = String(mail.html ?? '');
      const bodyText = text || htmlToText(html);
      const stored: StoredMail = {
        ID: id,
        MessageID: `${id}@mailbox.local`,
        Created: new Date().toISOString(),
        Subject: String(mail.subject ?? ''),
        From: address(mail.from),
        To: (mail.to ?? []).map(address),
        Text: text,
        HTML: html,
        Snippet: snippetOf(bodyText),
      };
      entries.unshift({ mail: stored, size: sizeOf(stored), searchText: bodyText.toLowerCase() });
      if (entries.length > limit) entries.length = limit;
      return stored;
    },
    messages(): StoredMail[] {
      return entries.map((e) => e.mail);
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
