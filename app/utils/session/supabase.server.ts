// One @supabase/ssr server client per request, shared by every loader and action of that request,
// so a session refresh happens once and its cookies are written once.
import type { AppLoadContext } from '@remix-run/node';
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';
import { requestUsedHttps } from '../client-address.server.ts';
import { config, supabaseEnv } from '../env.server.ts';
import { backendFetch, postJson } from '../backend-fetch.server.ts';
import { sessionFromCookies, type CookieSession } from './cookie.server.ts';
import { requestState } from './request-state.server.ts';

export interface RequestSupabase {
  supabase: SupabaseClient<Database>;
  /** Set-Cookie values the client wrote; every response of the request carries them. */
  cookies: string[];
}

/** Whether the visitor came over https (X-Forwarded-Proto believed as TRUST_PROXY says). */
export function isHttps(request: Request): boolean {
  return requestUsedHttps(request, config().trustProxy);
}

export function getSupabase(request: Request, context: AppLoadContext): RequestSupabase {
  const state = requestState(context);
  if (state.supabase) return state.supabase;
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
  });
  state.supabase = { supabase, cookies };
  return state.supabase;
}

// Headers objects that already carry this request's cookies. (remix-serve's fetch polyfill has no
// Headers.getSetCookie, so duplicates cannot be found by reading the header back.)
const applied = new WeakSet<Headers>();

/**
 * Appends the request's session cookies to a response's headers (never replacing a cookie already
 * there), and makes such a response uncacheable: loaders, actions and thrown redirects all use it.
 */
export function applySessionHeaders(target: Headers, context: AppLoadContext): void {
  const entry = requestState(context).supabase;
  if (!entry || entry.cookies.length === 0 || applied.has(target)) return;
  for (const cookie of entry.cookies) target.append('Set-Cookie', cookie);
  // A response that sets auth cookies must never be cached, by the browser or anything between.
  target.set('Cache-Control', 'private, no-store');
  applied.add(target);
}

// The cookie the server client keeps the session under: supabase-js's default storage key for the
// backend's address (`sb-<first label of its host>-auth-token`, SupabaseClient's constructor); the app
// names no other.
const storageKeys = new Map<string, string>();
function storageKeyFor(url: string): string {
  let key = storageKeys.get(url);
  if (key === undefined) {
    key = `sb-${new URL(url).hostname.split('.')[0]}-auth-token`;
    storageKeys.set(url, key);
  }
  return key;
}

/**
 * The session the request's cookies carry, decoded once per request, its token not yet checked
 * (user.server.ts checks it). The Supabase client reads the same cookies again, decoding them on each
 * read, when a request needs the client.
 */
export function cookieSession(
  request: Request,
  context: AppLoadContext,
): CookieSession | 'none' | 'unreadable' {
  const state = requestState(context);
  state.cookie ??= sessionFromCookies(
    parseCookieHeader(request.headers.get('Cookie') ?? ''),
    storageKeyFor(supabaseEnv().url),
  );
  return state.cookie;
}

/** What supabase-js answers for an rpc(): PostgREST's error JSON, or a failed fetch with code ''. */
export interface RpcOutcome<T> {
  data: T | null;
  error: { message: string; code?: string; details?: string | null; hint?: string | null } | null;
}

const parseJson = (text: string): unknown => JSON.parse(text);

/**
 * A database function, called as the signed-in user with an access token whose signature has been
 * checked, without building a Supabase client: the request supabase-js's `rpc()` sends
 * (POST /rest/v1/rpc/<fn>, its arguments as a JSON object), answered as it answers (postgrest-js processResponse). For a
 * page whose only backend call this is (the profile page), the client's construction and its two
 * session reads were about a tenth of the page's CPU.
 */
export async function rpcAsUser<T>(
  fn: string,
  accessToken: string,
  args: Record<string, unknown> = {},
): Promise<RpcOutcome<T>> {
  const { url, anonKey } = supabaseEnv();
  let answer: { status: number; text: string };
  try {
    answer = await postJson(
      new URL(`rest/v1/rpc/${fn}`, url.endsWith('/') ? url : `${url}/`),
      { apikey: anonKey, authorization: `Bearer ${accessToken}`, 'content-profile': 'public' },
      JSON.stringify(args),
    );
  } catch (error) {
    return {
      data: null,
      error: { message: `FetchError: ${error instanceof Error ? error.message : String(error)}`, code: '' },
    };
  }
  const ok = answer.status >= 200 && answer.status < 300;
  let parsed: unknown;
  try {
    parsed = answer.text === '' ? null : parseJson(answer.text);
  } catch {
    return { data: null, error: { message: answer.text } };
  }
  // The function's JSON has the shape its migration documents; the caller names it.
  if (ok) return { data: parsed as T, error: null };
  if (typeof parsed !== 'object' || parsed === null) return { data: null, error: { message: answer.text } };
  const field = (name: string) => {
    const value: unknown = Reflect.get(parsed, name);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    data: null,
    error: {
      message: field('message') ?? answer.text,
      code: field('code'),
      details: field('details'),
      hint: field('hint'),
    },
  };
}
