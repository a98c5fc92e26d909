// Who is signed in, from verified claims (a local signature check against the backend's JWKS),
// never from the unverified session in the cookie.
import type { AppLoadContext } from '@remix-run/node';
import type { SupabaseClient } from '@supabase/supabase-js';
import { redirect } from '@remix-run/node';
import { SIGNED_IN_HOME } from '../home.ts';
import { unavailableResponse } from '../data-errors.server.ts';
import { startPageCall } from './page-query.server.ts';
import { requestState, type UserOutcome } from './request-state.server.ts';
import { applySessionHeaders, cookieSession, getSupabase, rpcAsUser } from './supabase.server.ts';

export interface SignedInUser {
  id: string;
  email: string;
  sessionId: string;
  aal: string;
  /** Signed in with a first factor only, while the account has a verified authenticator app. */
  needsMfa: boolean;
  /** How this session proved who it is, and when (seconds), from the token's `amr` claim. */
  amr: AuthenticationMethod[];
}

export interface AuthenticationMethod {
  method: string;
  timestamp: number;
}

// GoTrue writes `amr` as objects with timestamps; RFC 8176's plain strings carry no time, so they
// count for nothing here.
function authenticationMethods(amr: unknown): AuthenticationMethod[] {
  if (!Array.isArray(amr)) return [];
  return amr.flatMap((entry: unknown) =>
    typeof entry === 'object' &&
    entry !== null &&
    'method' in entry &&
    'timestamp' in entry &&
    typeof entry.method === 'string' &&
    typeof entry.timestamp === 'number'
      ? [{ method: entry.method, timestamp: entry.timestamp }]
      : [],
  );
}

/**
 * Who is signed in, or null: for pages anyone may see (the root layout, the sign-in pages). A
 * signed-in page calls signedIn() instead (signed-in.server.ts). One answer per request, however many
 * loaders ask.
 */
export async function getSignedInUser(
  request: Request,
  context: AppLoadContext,
): Promise<SignedInUser | null> {
  const state = requestState(context);
  state.user ??= readSignedInUser(request, context);
  const outcome = await state.user;
  if (outcome === 'unavailable') throw unavailableResponse();
  return outcome;
}

type Claims = NonNullable<Awaited<ReturnType<SupabaseClient['auth']['getClaims']>>['data']>['claims'];

// Access tokens whose signature this process has checked, with their claims. A browser sends the same
// token with every request for up to an hour; checking its signature again (importing the JWKS key,
// an ECDSA verification) was the largest part of reading who is signed in. An entry lasts until the
// token expires, and never more than five minutes, so a key withdrawn from the JWKS stops being
// trusted here within about the time the auth client caches the JWKS.
const checkedTokens = new Map<string, { claims: Claims; until: number }>();
const CHECKED_TOKENS_MAX = 10_000;
const CHECKED_TOKEN_TTL_MS = 5 * 60_000;

/** The claims of the request's access token (refreshed first if it expired), its signature checked. */
async function verifiedClaims(supabase: SupabaseClient): Promise<Claims | null> {
  // From the cookies; getClaims reads them the same way. Only the token is used, never the session's
  // unverified user.
  const { data: current } = await supabase.auth.getSession();
  const token = current.session?.access_token;
  if (!token) return null;
  const now = Date.now();
  const known = checkedTokens.get(token);
  if (known && known.until > now) return known.claims;
  const { data, error } = await supabase.auth.getClaims(token);
  if (error || !data) return null;
  const expires = typeof data.claims.exp === 'number' ? data.claims.exp * 1000 : now;
  if (checkedTokens.size >= CHECKED_TOKENS_MAX) {
    // The oldest entry goes (a Map iterates in insertion order).
    const oldest = checkedTokens.keys().next().value;
    if (oldest !== undefined) checkedTokens.delete(oldest);
  }
  checkedTokens.set(token, { claims: data.claims, until: Math.min(expires, now + CHECKED_TOKEN_TTL_MS) });
  return data.claims;
}

// auth-js refreshes a session whose access token expires within this margin (EXPIRY_MARGIN_MS in
// auth-js's lib/constants.ts); such a request reads its session through the client, which refreshes it.
const REFRESH_MARGIN_MS = 90_000;

/**
 * Who the request's cookies say is signed in, when that needs no Supabase client: null when they carry
 * no session; the token and its claims when the token is far from expiry and its signature was already
 * checked (checkedTokens). Otherwise undefined: the client reads the session, refreshing it if due,
 * and the token's signature is checked.
 */
function knownSession(
  request: Request,
  context: AppLoadContext,
): { token: string; claims: Claims } | null | undefined {
  const session = cookieSession(request, context);
  if (session === 'none') return null;
  if (session === 'unreadable') return undefined;
  const now = Date.now();
  if (session.expiresAt * 1000 - now < REFRESH_MARGIN_MS) return undefined;
  const known = checkedTokens.get(session.accessToken);
  return known && known.until > now ? { token: session.accessToken, claims: known.claims } : undefined;
}

async function readSignedInUser(request: Request, context: AppLoadContext): Promise<UserOutcome> {
  // Most requests of a signed-in browser carry a token checked before and far from expiry: they need
  // no Supabase client unless a route asks for one.
  const known = knownSession(request, context);
  if (known === null) return null;
  const state = requestState(context);
  if (known) state.checkedToken = known.token;
  const claims = known ? known.claims : await verifiedClaims(getSupabase(request, context).supabase);
  if (!claims) return null;
  // The token's signature is fine, but its session may have been ended elsewhere since (sign out
  // everywhere or of one device, a password change), and the token's aal may fall short of what the
  // account needs (a verified authenticator app): one query answers both, once per request.
  // When a loader of this request gave signedIn() a page query, its answer holds that status. Remix
  // calls every loader of a request in one pass, and signedIn() takes the query before anything in the
  // loader waits: by the next turn of the event loop every loader has given its own.
  await new Promise((resolve) => setImmediate(resolve));
  const [first] = state.pageCalls.values();
  state.sessionCall = first ?? null;
  const { data: status, error: statusError } = first
    ? await startPageCall(request, context, first, state.checkedToken).then(({ data, error }) => ({
        data: data?.session ?? null,
        error,
      }))
    : known
      ? await rpcAsUser<string>('session_status', known.token)
      : await getSupabase(request, context).supabase.rpc('session_status');
  if (statusError) return 'unavailable';
  if (status !== 'active' && status !== 'mfa_required') {
    await getSupabase(request, context).supabase.auth.signOut({ scope: 'local' });
    return null;
  }
  return {
    id: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : '',
    sessionId: typeof claims.session_id === 'string' ? claims.session_id : '',
    aal: typeof claims.aal === 'string' ? claims.aal : 'aal1',
    needsMfa: status === 'mfa_required',
    amr: authenticationMethods(claims.amr),
  };
}

/** A redirect that carries this request's session cookies (a thrown redirect skips entry.server). */
export function redirectWithSession(
  url: string,
  request: Request,
  context: AppLoadContext,
  init: ResponseInit = {},
): Response {
  getSupabase(request, context);
  const response = redirect(url, init);
  applySessionHeaders(response.headers, context);
  return response;
}

/** Auth pages send signed-in visitors on to their home (or to the second step they still owe). */
export async function requireAnonymous(request: Request, context: AppLoadContext): Promise<void> {
  const user = await getSignedInUser(request, context);
  if (user) throw redirectWithSession(user.needsMfa ? '/login/mfa' : SIGNED_IN_HOME, request, context);
}
