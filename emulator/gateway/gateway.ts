// One HTTP server in front of the services, like the Kong gateway of a Supabase project
// (supabase/supabase docker/volumes/api/kong.yml): prefixes stripped, `apikey` checked, CORS on.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Pool } from 'undici';
import { sendJson } from '../lib/http.ts';

export type Mount = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
) => Promise<void> | void;

/** A websocket upgrade, handed over with the gateway's prefix stripped. */
export type UpgradeMount = (
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  path: string,
  query: URLSearchParams,
) => void;

export interface GatewayOptions {
  apiKeys: string[];
  auth: Mount;
  storage: Mount;
  realtime: { handle: Mount; upgrade: UpgradeMount };
  /** Edge Functions. Like Kong's `functions-v1` route, no `apikey` is asked: the function checks the JWT. */
  functions?: Mount;
  postgrestPort: number;
  log?: (line: string) => void;
}

const ALLOWED_HEADERS =
  'authorization, apikey, x-client-info, content-type, prefer, range, accept-profile, content-profile, ' +
  'x-supabase-api-version, x-upsert, cache-control, x-metadata, x-region, x-retry-count, traceparent, tracestate, baggage';
/** The headers a browser may read from an answer (CORS); `bench/nginx.ts` sends the same. */
export const EXPOSED_HEADERS =
  'Content-Range, X-Total-Count, Link, X-Supabase-Api-Version, Content-Location, Location';
const ALLOWED_METHODS = 'GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS';

/** Auth routes Kong lets through without a key: email links, OAuth redirects and the public keys. */
const OPEN_AUTH_PATHS = new Set(['/verify', '/callback', '/authorize', '/.well-known/jwks.json']);

/**
 * Storage URLs meant to be opened without a key, as on a hosted project: public objects (and their
 * image renders), and signed URLs, whose token is the authorisation.
 */
function isOpenStoragePath(method: string | undefined, path: string): boolean {
  if (method === 'GET' || method === 'HEAD') {
    return /^\/(object|render\/image)\/(public|sign|info\/public)\//.test(path);
  }
  return method === 'PUT' && path.startsWith('/object/upload/sign/');
}

function corsHeaders(): Record<string, string> {
  return { ...CORS_HEADERS };
}

const BAD_GATEWAY_MESSAGE = 'An invalid response was received from the upstream server';

/** The CORS headers every answer carries, as an object and as a flat [name, value, …] list. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  Vary: 'Origin',
};
const CORS_HEADER_LIST: readonly string[] = Object.entries(CORS_HEADERS).flat();
const CORS_HEADER_NAMES = new Set(Object.keys(CORS_HEADERS).map((k) => k.toLowerCase()));

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, and so does a message's chunked
 * framing: the gateway forwards none of them, either way. Each side frames its own messages
 * (undici a request, node:http an answer).
 */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'transfer-encoding',
];
/** Nor `host`, nor `expect`, which node:http has already answered with its 100 Continue. */
const REQUEST_HEADERS_NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'expect']);
const RESPONSE_HEADERS_NOT_FORWARDED = new Set(HOP_BY_HOP);

/** The request's headers as a flat [name, value, …] list, as node:http parsed them. */
function forwardedRequestHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!REQUEST_HEADERS_NOT_FORWARDED.has(name.toLowerCase())) out.push(name, raw[i + 1] as string);
  }
  return out;
}

/**
 * PostgREST's response headers, minus the hop-by-hop ones and any CORS header of its own, then the
 * gateway's CORS headers: Kong's cors plugin likewise has the last word on those. A flat list,
 * which `writeHead` takes as it is.
 */
function forwardedResponseHeaders(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!RESPONSE_HEADERS_NOT_FORWARDED.has(name) && !CORS_HEADER_NAMES.has(name)) {
      // Spaces and tabs after a value are not part of it (RFC 9110 §5.5); node:http's client drops them too.
      out.push(raw[i] as string, (raw[i + 1] as string).replace(/[\t ]+$/, ''));
    }
  }
  for (const value of CORS_HEADER_LIST) out.push(value);
  return out;
}

/** Whether a request carries a body (RFC 9112 §6.3): only a length or a transfer coding says so. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/** The `apikey` header, else the `?apikey=` parameter; the query string is only parsed when needed. */
function apiKeyOf(req: IncomingMessage, search: string): string | undefined {
  const fromHeader = req.headers.apikey;
  const header = Array.isArray(fromHeader) ? fromHeader[0] : fromHeader;
  return header ?? new URLSearchParams(search).get('apikey') ?? undefined;
}

export function createGateway(options: GatewayOptions): http.Server {
  const keys = new Set(options.apiKeys);
  // Keep-alive connections to PostgREST, request and response bodies streamed both ways with
  // back-pressure: undici's Pool (the client Node's own fetch is built on).
  const postgrest = new Pool(`http://127.0.0.1:${options.postgrestPort}`, { connections: 64 });

  function badGateway(res: ServerResponse): void {
    // A writeHead that threw on PostgREST's head (a value node:http refuses) has already set its
    // reason phrase, which would otherwise be kept: "502 OK".
    res.statusMessage = '';
    sendJson(res, 502, { message: BAD_GATEWAY_MESSAGE }, corsHeaders());
  }

  function proxyToPostgrest(req: IncomingMessage, res: ServerResponse, path: string, search: string): void {
    postgrest
      .stream(
        {
          method: req.method ?? 'GET',
          path: path + search,
          headers: forwardedRequestHeaders(req.rawHeaders),
          body: hasBody(req) ? req : null,
          // The headers as they came (names in their own case, in order, values byte for byte as
          // Latin-1, which node:http writes back the same), as a flat list.
          responseHeaders: 'raw',
        },
        ({ statusCode, headers }) => {
          // writeHead throws on a header value node:http refuses: a bad upstream answer, so a 502.
          res.writeHead(statusCode, forwardedResponseHeaders(headers as unknown as string[]));
          return res;
        },
      )
      .catch(() => {
        if (res.headersSent) res.destroy();
        else badGateway(res);
      });
  }

  const server = http.createServer((req, res) => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const search = q === -1 ? '' : rawUrl.slice(q);

    if (req.method === 'OPTIONS') {
      res.writeHead(200, {
        ...corsHeaders(),
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? ALLOWED_HEADERS,
        'Access-Control-Max-Age': '3600',
        'Content-Length': '0',
      });
      res.end();
      return;
    }

    const service = /^\/(auth|rest|storage|realtime|functions)\/v1(\/.*)?$/.exec(path);
    const name = service?.[1];
    const rest = service?.[2] ?? '/';
    if (!name) {
      sendJson(res, 404, { message: 'no Route matched with those values' }, corsHeaders());
      return;
    }
    const needsKey =
      name === 'rest' ||
      name === 'realtime' ||
      (name === 'auth' && !OPEN_AUTH_PATHS.has(rest)) ||
      (name === 'storage' && !isOpenStoragePath(req.method, rest));
    if (needsKey) {
      const key = apiKeyOf(req, search);
      if (!key) {
        sendJson(res, 401, { message: 'No API key found in request' }, corsHeaders());
        return;
      }
      if (!keys.has(key)) {
        sendJson(res, 401, { message: 'Invalid authentication credentials' }, corsHeaders());
        return;
      }
    }
    if (name === 'rest') {
      proxyToPostgrest(req, res, rest, search);
      return;
    }
    const functions = name === 'functions' ? options.functions : undefined;
    if (name === 'auth' || name === 'storage' || name === 'realtime' || functions) {
      for (const [k, v] of Object.entries(corsHeaders())) res.setHeader(k, v);
      const mount =
        functions ??
        (name === 'auth' ? options.auth : name === 'storage' ? options.storage : options.realtime.handle);
      Promise.resolve(mount(req, res, rest, new URLSearchParams(search))).catch((error: unknown) => {
        options.log?.(`gateway: ${name} handler failed: ${String(error)}`);
        if (!res.headersSent) sendJson(res, 500, { message: 'An unexpected error occurred' });
        else res.destroy();
      });
      return;
    }
    sendJson(res, 404, { message: 'no Route matched with those values' }, corsHeaders());
  });
  // Kong's key-auth covers the realtime websocket too: the key comes as `?apikey=` (what
  // realtime-js sends) or a header, and a missing or unknown one is refused before the upgrade.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const search = q === -1 ? '' : rawUrl.slice(q);
    const query = new URLSearchParams(search);
    const match = /^\/realtime\/v1(\/.*)$/.exec(path);
    const refuse = (status: number, message: string) => {
      const body = JSON.stringify({ message });
      const reason = status === 401 ? 'Unauthorized' : 'Not Found';
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (!match) {
      refuse(404, 'no Route matched with those values');
      return;
    }
    const key = apiKeyOf(req, search);
    if (!key) {
      refuse(401, 'No API key found in request');
      return;
    }
    if (!keys.has(key)) {
      refuse(401, 'Invalid authentication credentials');
      return;
    }
    options.realtime.upgrade(req, socket, head, match[1] ?? '/', query);
  });
  server.keepAliveTimeout = 65_000;
  server.on('close', () => void postgrest.destroy());
  return server;
}
