// A small in-memory mail catcher. The local auth server hands every email to `deliver()`; people
// read them on a web page and tests read them through a Mailpit-compatible JSON API (axllent/mailpit
// server/apiv1). The store, the search language and the pages are beside it.
import http from 'node:http';
import { BodyTooLarge, readBody } from '../lib/http.ts';
import type { OutgoingMail } from '../lib/mail.ts';
import { matches, parseQuery } from './search.ts';
import { type Entry, type StoredMail, store, summary } from './store.ts';
import { PAGE_CSP, indexPage, page, viewPage } from './web.ts';

export type { StoredMail } from './store.ts';

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
      raw = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        discardBody(req);
        sendJson(res, 413, { error: 'request body too large' });
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
      ListUnsubscribe: m.ListUnsubscribe,
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
      const entry = store(mail);
      entries.unshift(entry);
      if (entries.length > limit) entries.length = limit;
      return entry.mail;
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
