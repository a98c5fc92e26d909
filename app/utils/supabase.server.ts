// One @supabase/ssr server client per request, shared by every loader and action of that request,
// so a session refresh happens once and its cookies are written once.
import type { AppLoadContext } from '@remix-run/node';
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import type { SupabaseClient } from '@supabase/supabase-js';
import { supabaseEnv } from './env.server.ts';
import { NodeWebSocket } from './websocket.server.ts';

export interface RequestSupabase {
  supabase: SupabaseClient;
  /** Set-Cookie (and Cache-Control) headers the client wrote; every response of the request carries them. */
  headers: Headers;
}

// Remix gives each request its own load-context object: the key for "this request".
const perRequest = new WeakMap<object, RequestSupabase>();

export function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

export function getSupabase(request: Request, context: AppLoadContext): RequestSupabase {
  const existing = perRequest.get(context);
  if (existing) return existing;
  const headers = new Headers();
  const { url, anonKey } = supabaseEnv();
  const supabase = createServerClient(url, anonKey, {
    cookies: {
      getAll() {
        return parseCookieHeader(request.headers.get('Cookie') ?? '').map(({ name, value }) => ({
          name,
          value: value ?? '',
        }));
      },
      setAll(cookies) {
        for (const { name, value, options } of cookies) {
          headers.append('Set-Cookie', serializeCookieHeader(name, value, options));
        }
        // A response that sets auth cookies must never be cached, by the browser or anything between.
        headers.set('Cache-Control', 'private, no-store');
      },
    },
    cookieOptions: { secure: isHttps(request) },
    realtime: { transport: NodeWebSocket },
  });
  const entry = { supabase, headers };
  perRequest.set(context, entry);
  return entry;
}

/**
 * Copies the request's session headers onto a response's headers: cookies are appended (never
 * replacing one already there), so loaders, actions and thrown redirects can all carry them.
 */
export function applySessionHeaders(target: Headers, context: AppLoadContext): void {
  const entry = perRequest.get(context);
  if (!entry) return;
  const present = new Set(target.getSetCookie());
  for (const cookie of entry.headers.getSetCookie()) {
    if (!present.has(cookie)) target.append('Set-Cookie', cookie);
  }
  const cacheControl = entry.headers.get('Cache-Control');
  if (cacheControl) target.set('Cache-Control', cacheControl);
}
