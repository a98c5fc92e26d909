import { requestUsedHttps } from './client-address.server.ts';
import { config } from './env.server.ts';

// Security headers. Documents get a CSP that allows scripts only with this request's nonce, and
// network connections only to the app and its Supabase API (REST, realtime). Data responses (JSON
// for client navigations and fetchers) and the request guard's 403 page get a CSP that allows
// nothing but what they need. All of them: no framing, no sniffing, no full referrer off the site,
// and HSTS when served over https.

const requestOverHttps = (request: Request) => requestUsedHttps(request, config().trustProxy);

/** What every response carries, whatever it holds. */
export function baseSecurityHeaders(https: boolean): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    ...(https ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}

/** A data response runs nothing and loads nothing. */
export function dataSecurityHeaders(request: Request): Record<string, string> {
  return {
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    ...baseSecurityHeaders(requestOverHttps(request)),
  };
}

export function securityHeaders(
  request: Request,
  nonce: string,
  supabaseUrl: string,
): Record<string, string> {
  const api = new URL(supabaseUrl);
  const realtime = `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}`;
  const dev = config().mode === 'development';
  const connect = ["'self'", api.origin, realtime, ...(dev ? ['ws://localhost:*', 'ws://127.0.0.1:*'] : [])];
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${api.origin}`,
    `connect-src ${connect.join(' ')}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    ...baseSecurityHeaders(requestOverHttps(request)),
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
}
