// One @supabase/ssr server client per request, shared by every loader and action of that request,
// so a session refresh happens once and its cookies are written once.
import type { AppLoadContext } from '@remix-run/node';
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';
import { supabaseEnv } from './env.server.ts';
import { NodeWebSocket } from './websocket.server.ts';
import { backendFetch } from './backend-fetch.server.ts';

export interface RequestSupabase {
  supabase: SupabaseClient<Database>;
  /** Set-Cookie values the client wrote; every response of the request carries them. */
  cookies: string[];
}

// Remix gives each request its own load-context object: the key for "this request".
const perRequest = new WeakMap<object, RequestSupabase>();

export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

export function getSupabase(request: Request, context: AppLoadContext): RequestSupabase {
  const existing = perRequest.get(context);
  if (existing) return existing;
  const cookies: string[] = [];
  const { url, anonKey } = supabaseEnv();
  const userAgent = request.headers.get('User-Agent');
  const supabase = createServerClient<Database>(url, anonKey, {
    cookies: {
      getAll() {
        return parseCookieHeader(request.headers.get('Cookie') ?? '').map(({ name, value }) => ({
          name,
          value: value ?? '',
        }));
      },
      setAll(toSet) {
        for (const { name, value, options } of toSet)
          cookies.push(serializeCookieHeader(name, value, options));
      },
    },
    cookieOptions: { secure: isHttps(request) },
    // The auth server records the browser of each session it starts (the device list on
    // /account/security); the request reaches it from this server, so pass the browser's name on.
    global: { headers: userAgent ? { 'User-Agent': userAgent } : {}, fetch: backendFetch },
    realtime: { transport: NodeWebSocket },
  });
  const entry = { supabase, cookies };
  perRequest.set(context, entry);
  return entry;
}

// Headers objects that already carry this request's cookies. (remix-serve's fetch polyfill has no
// Headers.getSetCookie, so duplicates cannot be found by reading the header back.)
const applied = new WeakSet<Headers>();

/**
 * Appends the request's session cookies to a response's headers (never replacing a cookie already
 * there), and makes such a response uncacheable: loaders, actions and thrown redirects all use it.
 */
export function applySessionHeaders(target: Headers, context: AppLoadContext): void {
  const entry = perRequest.get(context);
  if (!entry || entry.cookies.length === 0 || applied.has(target)) return;
  for (const cookie of entry.cookies) target.append('Set-Cookie', cookie);
  // A response that sets auth cookies must never be cached, by the browser or anything between.
  target.set('Cache-Control', 'private, no-store');
  applied.add(target);
}
