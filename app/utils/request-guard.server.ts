// What the app does to each request before Remix sees it. `npm start` is remix-serve, which offers
// no middleware and no load context, so the server build installs this from its entry module: it
// wraps the 'request' event of Node's HTTP servers (remix-serve's express app listens on one).
// See docs/decisions/007-request-guard.md.
//
// 1. Cross-site form posts get the app's 403. Remix refuses them itself, but before any route
//    code runs and with an empty 500 (server-runtime's throwIfPotentialCSRFAttack), which tells
//    monitoring the app is broken. The check below refuses everything that check would refuse.
// 2. The socket's address rides on the request in PEER_HEADER (any value a client sent is
//    dropped), because a Remix Request carries no socket.
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { PEER_HEADER, visitorUsedHttps } from './client-address.server.ts';
import { config } from './env.server.ts';
import { MESSAGES } from './messages.ts';
import { baseSecurityHeaders } from './security-headers.server.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether Remix would refuse this request as cross-site: its Origin names another host than the request. */
export function isCrossSite(req: Pick<IncomingMessage, 'method' | 'headers'>): boolean {
  if (!UNSAFE.has(req.method ?? '')) return false;
  const origin = header(req as IncomingMessage, 'origin');
  if (origin === undefined || origin === '') return false;
  let originHost: string;
  if (origin === 'null') originHost = 'null';
  else if (URL.canParse(origin)) originHost = new URL(origin).host;
  else return true;
  const forwardedHost = header(req as IncomingMessage, 'x-forwarded-host')
    ?.split(',')[0]
    ?.trim();
  const host = forwardedHost || header(req as IncomingMessage, 'host');
  return !host || originHost !== host;
}

const FORBIDDEN_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Forbidden · Crewboard</title>
<style>
body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0;display:grid;place-items:center;min-height:100vh}
main{max-width:28rem;margin:1rem;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:.5rem 0;color:#334155}a{color:#4f46e5}
@media (prefers-color-scheme:dark){body{background:#0f172a;color:#e2e8f0}main{background:#1e293b;border-color:#334155}p{color:#cbd5e1}a{color:#a5b4fc}}
</style>
</head>
<body>
<main>
<h1>Forbidden</h1>
<p>${MESSAGES.forbidden}</p>
<p>This form was sent from another site. Open Crewboard and try again from there.</p>
<p><a href="/">Go to Crewboard</a></p>
</main>
</body>
</html>
`;

function refuse(req: IncomingMessage, res: ServerResponse): void {
  console.warn(`Refused a cross-site ${req.method} to ${(req.url ?? '/').split('?')[0]}`);
  const wantsJson = (req.url ?? '').includes('_data=') || header(req, 'accept')?.includes('application/json');
  const body = wantsJson ? JSON.stringify({ error: MESSAGES.forbidden }) : FORBIDDEN_PAGE;
  res.writeHead(403, {
    'Content-Type': wantsJson ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    ...baseSecurityHeaders(
      visitorUsedHttps(
        'encrypted' in req.socket,
        req.socket.remoteAddress,
        header(req, 'x-forwarded-proto'),
        config().trustProxy,
      ),
    ),
    // The request body is not read: tell the client the connection will not be reused.
    Connection: 'close',
  });
  res.end(body);
  req.resume();
}

/** Runs before the app; true when it answered the request itself. */
export function guardRequest(req: IncomingMessage, res: ServerResponse): boolean {
  delete req.headers[PEER_HEADER];
  const peer = req.socket.remoteAddress;
  if (peer) req.headers[PEER_HEADER] = peer;
  if (isCrossSite(req)) {
    refuse(req, res);
    return true;
  }
  return false;
}

const INSTALLED = Symbol.for('crewboard.requestGuard');

/** Installs the guard on every Node HTTP server of this process, once (dev rebuilds import this again). */
export function installRequestGuard(): void {
  // Tests that load the server build inside their own process (beside a backend they started)
  // call its handler directly; they have no server of the app's to guard.
  if (process.env.NODE_ENV === 'test') return;
  const proto: Server & { [INSTALLED]?: true } = Server.prototype;
  if (proto[INSTALLED]) return;
  const emit = proto.emit;
  proto.emit = function guardedEmit(this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const [req, res] = args;
      if (guardRequest(req as IncomingMessage, res as ServerResponse)) return true;
    }
    return Reflect.apply(emit, this, [event, ...args]);
  };
  proto[INSTALLED] = true;
}
