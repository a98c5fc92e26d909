// One HTTP server in front of the services, like the Kong gateway of a Supabase project
// (supabase/supabase docker/volumes/api/kong.yml): prefixes stripped, `apikey` checked, CORS on.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { sendJson } from '../lib/http.ts';
import { FastPathServer, type FastResponse, type FastRoute } from './fast-path.ts';
import { Upstream } from './upstream.ts';

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
  /**
   * Whether REST reads take the fast path (fast-path.ts), parsed and answered below node:http; on
   * unless false. Off, every request goes through node:http as it does for everything else.
   */
  fastPath?: boolean;
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
const BAD_GATEWAY_BODY = Buffer.from(JSON.stringify({ message: BAD_GATEWAY_MESSAGE }));

/** The CORS headers every answer carries, as an object and as the flat array `writeHead` takes as is. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  Vary: 'Origin',
};
const CORS_HEADER_LIST: readonly string[] = Object.entries(CORS_HEADERS).flat();
const CORS_HEADER_NAMES = new Set(Object.keys(CORS_HEADERS).map((k) => k.toLowerCase()));

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) and `host` describe one connection, so the gateway does not
 * forward them. A request's `transfer-encoding` does go on: it tells node:http to chunk the body.
 */
const REQUEST_HEADERS_NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
]);
const RESPONSE_HEADERS_NOT_FORWARDED = new Set([...REQUEST_HEADERS_NOT_FORWARDED, 'transfer-encoding']);

/** The request's headers as a flat [name, value, …] list (what node:http parsed, no object built). */
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
function forwardedResponseHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!RESPONSE_HEADERS_NOT_FORWARDED.has(name) && !CORS_HEADER_NAMES.has(name)) {
      out.push(raw[i] as string, raw[i + 1] as string);
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
  return keyFrom(Array.isArray(fromHeader) ? fromHeader[0] : fromHeader, search);
}

function keyFrom(header: string | undefined, search: string): string | undefined {
  return header ?? new URLSearchParams(search).get('apikey') ?? undefined;
}

export function createGateway(options: GatewayOptions): http.Server {
  const keys = new Set(options.apiKeys);
  // Body-less requests (every read) take the lean keep-alive client in upstream.ts; requests with a
  // body take node:http's, whose request streaming (chunking, 100-continue) is worth its cost there.
  const upstream = new Upstream({
    host: '127.0.0.1',
    port: options.postgrestPort,
    requestHeadersNotForwarded: REQUEST_HEADERS_NOT_FORWARDED,
    responseHeadersNotForwarded: [...RESPONSE_HEADERS_NOT_FORWARDED, ...CORS_HEADER_NAMES],
    responseHeadersAdded: CORS_HEADER_LIST,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' });
  const postgrestHost = `127.0.0.1:${options.postgrestPort}`;

  function badGateway(res: ServerResponse): void {
    // A writeHead that threw on PostgREST's head (a value node:http refuses) has already set its
    // reason phrase, which would otherwise be kept: "502 OK".
    res.statusMessage = '';
    sendJson(res, 502, { message: BAD_GATEWAY_MESSAGE }, corsHeaders());
  }

  /** `badGateway` on the fast path: the same head (sendJson's header order) and body. */
  function fastBadGateway(res: FastResponse): void {
    res.writeHead(502, [
      'Content-Type',
      'application/json',
      'Content-Length',
      String(BAD_GATEWAY_BODY.length),
      ...CORS_HEADER_LIST,
    ]);
    res.end(BAD_GATEWAY_BODY);
  }

  function proxyToPostgrest(req: IncomingMessage, res: ServerResponse, path: string, search: string): void {
    const method = req.method ?? 'GET';
    if (!hasBody(req)) {
      // `upstream` leaves out and adds the same headers as the node:http path below (it was given
      // the lists), in the same pass that writes or reads a head.
      upstream.forward({
        method,
        path: path + search,
        rawHeaders: req.rawHeaders,
        res,
        fail: badGateway,
      });
      return;
    }
    const headers = forwardedRequestHeaders(req.rawHeaders);
    headers.push('Host', postgrestHost);
    const upstreamReq = http.request(
      // node:http takes a flat header list as it is; its types only know the object form.
      {
        host: '127.0.0.1',
        port: options.postgrestPort,
        method,
        path: path + search,
        headers: headers as unknown as http.OutgoingHttpHeaders,
        agent,
      },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, forwardedResponseHeaders(upstreamRes.rawHeaders));
        upstreamRes.pipe(res);
      },
    );
    upstreamReq.on('error', () => {
      if (!res.headersSent) badGateway(res);
      else res.destroy();
    });
    req.pipe(upstreamReq);
  }

  /**
   * The fast path's share of the rules below: a REST request with a known key goes to PostgREST as
   * `proxyToPostgrest` sends it, with its body when it has one. Everything else (other routes, a
   * missing or unknown key, which node:http then answers with its 401) is handed to node:http.
   */
  const fastRoute: FastRoute = (request, res) => {
    const target = request.target;
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const search = q === -1 ? '' : target.slice(q);
    if (path !== '/rest/v1' && !path.startsWith('/rest/v1/')) return false;
    const key = keyFrom(request.apikey, search);
    if (!key || !keys.has(key)) return false;
    upstream.forward({
      method: request.method,
      path: (path.slice('/rest/v1'.length) || '/') + search,
      rawHeaders: request.headerLines,
      body: request.body,
      res,
      fail: fastBadGateway,
    });
    return true;
  };

  const fast = options.fastPath === false ? undefined : fastRoute;
  const server = new FastPathServer(fast, (req, res) => {
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
  server.on('close', () => {
    agent.destroy();
    upstream.destroy();
  });
  return server;
}
