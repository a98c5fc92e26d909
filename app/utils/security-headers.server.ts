import { config } from './env.server.ts';

// Security headers on every document response. The CSP allows scripts only with this request's
// nonce, and network connections only to the app and its Supabase API (REST, realtime).

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
  const headers: Record<string, string> = {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
  const forwardedProto = request.headers.get('x-forwarded-proto');
  if (new URL(request.url).protocol === 'https:' || forwardedProto === 'https') {
    headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains';
  }
  return headers;
}
