// One HTTP server in front of the services, like the Kong gateway of the Supabase CLI's local stack
// (supabase/cli internal/start/templates/kong.yml, filled in by internal/start/start.go): prefixes
// stripped, CORS on, no key checked, and an `Authorization` derived from the `apikey` when none is sent.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Pool } from 'undici';
import { header, sendJson } from '../lib/http.ts';

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

/** The project's API keys, as the CLI's start.go fills them into kong.yml. */
export interface GatewayKeys {
  /** The legacy JWT keys. */
  anon: string;
  serviceRole: string;
  /** The opaque keys, which the gateway turns into the anon and service_role JWTs. */
  publishable: string;
  secret: string;
}

export interface GatewayOptions {
  keys: GatewayKeys;
  auth: Mount;
  storage: Mount;
  realtime: { handle: Mount; upgrade: UpgradeMount };
  /** Edge Functions: the function's `verify_jwt` checks the `Authorization` the gateway sends on. */
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

/**
 * Where kong.yml's request-transformer leaves `Authorization` alone: the routes `auth-v1-open`,
 * `auth-v1-open-callback` and `auth-v1-open-authorize` (email links and OAuth redirects) and
 * `storage-v1-s3` (its AWS signature is the `Authorization`). Kong matches a route's path as a
 * prefix; these are the paths after the service's prefix.
 */
function keepsAuthorization(service: string, path: string): boolean {
  if (service === 'auth') return /^\/(verify|callback|authorize)/.test(path);
  if (service === 'storage') return path.startsWith('/s3/');
  // Only `realtime-v1-rest` (`/realtime/v1/api`) has the transformer; the websocket's key is in its query.
  if (service === 'realtime') return !path.startsWith('/api');
  return false;
}

/**
 * The `Authorization` the CLI's gateway sends on (start.go's `BearerToken`, the value of kong.yml's
 * request-transformer `add` and `replace`): the caller's own, unless it is missing or an opaque key
 * (`Bearer sb_…`); then the JWT of an opaque `apikey`, or the `apikey` itself as it came (a legacy JWT
 * key, with no `Bearer `: GoTrue and PostgREST then see no bearer token, storage-api reads it as one),
 * or an empty value when there is no `apikey` either (which every service reads as no token).
 */
export function gatewayAuthorization(
  keys: GatewayKeys,
  authorization: string | undefined,
  apikey: string | undefined,
): string {
  if (authorization !== undefined && !authorization.startsWith('Bearer sb_')) return authorization;
  if (apikey === keys.secret) return `Bearer ${keys.serviceRole}`;
  if (apikey === keys.publishable) return `Bearer ${keys.anon}`;
  return apikey ?? '';
}

/**
 * The websocket's `?apikey=` as `realtime-v1-ws` sends it on (start.go's `QueryToken`, a
 * request-transformer `replace`): an opaque key becomes its JWT, anything else goes as it came.
 */
function realtimeQueryKey(keys: GatewayKeys, apikey: string): string {
  if (apikey === keys.secret) return keys.serviceRole;
  if (apikey === keys.publishable) return keys.anon;
  return apikey;
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

/**
 * The request's headers as a flat [name, value, …] list, as node:http parsed them; with
 * `authorization`, that value in place of the caller's.
 */
function forwardedRequestHeaders(raw: string[], authorization?: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (REQUEST_HEADERS_NOT_FORWARDED.has(name)) continue;
    if (authorization !== undefined && name === 'authorization') continue;
    out.push(raw[i] as string, raw[i + 1] as string);
  }
  if (authorization !== undefined) out.push('Authorization', authorization);
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

export function createGateway(options: GatewayOptions): http.Server {
  const { keys } = options;
  // Keep-alive connections to PostgREST, request and response bodies streamed both ways with
  // back-pressure: undici's Pool (the client Node's own fetch is built on).
  const postgrest = new Pool(`http://127.0.0.1:${options.postgrestPort}`, { connections: 64 });

  function badGateway(res: ServerResponse): void {
    // A writeHead that threw on PostgREST's head (a value node:http refuses) has already set its
    // reason phrase, which would otherwise be kept: "502 OK".
    res.statusMessage = '';
    sendJson(res, 502, { message: BAD_GATEWAY_MESSAGE }, corsHeaders());
  }

  function proxyToPostgrest(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    search: string,
    authorization: string | undefined,
  ): void {
    postgrest
      .stream(
        {
          method: req.method ?? 'GET',
          path: path + search,
          headers: forwardedRequestHeaders(req.rawHeaders, authorization),
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
    // No key-auth on any route (kong.yml has none): each service judges the token it is given.
    let authorization: string | undefined;
    if (!keepsAuthorization(name, rest)) {
      const given = header(req, 'authorization');
      const derived = gatewayAuthorization(keys, given, header(req, 'apikey'));
      // Kong would add an empty header where none came; sending none is the same to every service.
      if (derived !== given && !(given === undefined && derived === '')) authorization = derived;
    }
    if (name === 'rest') {
      proxyToPostgrest(req, res, rest, search, authorization);
      return;
    }
    if (authorization !== undefined) req.headers.authorization = authorization;
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
  // `realtime-v1-ws`: no key checked here (realtime refuses a missing or bad one itself), an opaque
  // `?apikey=` turned into its JWT.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q));
    const match = /^\/realtime\/v1(\/.*)$/.exec(path);
    if (!match) {
      const body = JSON.stringify({ message: 'no Route matched with those values' });
      socket.end(
        `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const apikey = query.get('apikey');
    if (apikey !== null) query.set('apikey', realtimeQueryKey(keys, apikey));
    options.realtime.upgrade(req, socket, head, match[1] ?? '/', query);
  });
  server.keepAliveTimeout = 65_000;
  server.on('close', () => void postgrest.destroy());
  return server;
}
