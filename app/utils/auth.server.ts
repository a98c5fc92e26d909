// Who is signed in, from verified claims (a local signature check against the backend's JWKS),
// never from the unverified session in the cookie.
import type { AppLoadContext } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { applySessionHeaders, getSupabase } from './supabase.server.ts';
import { SIGNED_IN_HOME } from './home.ts';

export interface SignedInUser {
  id: string;
  email: string;
  sessionId: string;
  aal: string;
}

// One answer per request, however many loaders ask. The shared value is an outcome, never a thrown
// Response: Remix reads the body of every thrown Response, and a body can be read only once.
const signedInPerRequest = new WeakMap<object, Promise<SignedInUser | null | 'unavailable'>>();

export async function getSignedInUser(
  request: Request,
  context: AppLoadContext,
): Promise<SignedInUser | null> {
  let pending = signedInPerRequest.get(context);
  if (!pending) {
    pending = readSignedInUser(request, context);
    signedInPerRequest.set(context, pending);
  }
  const outcome = await pending;
  if (outcome === 'unavailable') throw new Response('Backend unavailable', { status: 503 });
  return outcome;
}

async function readSignedInUser(
  request: Request,
  context: AppLoadContext,
): Promise<SignedInUser | null | 'unavailable'> {
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase.auth.getClaims();
  if (error || !data) return null;
  const { claims } = data;
  // The token's signature is fine, but its session may have been ended elsewhere since
  // (sign out everywhere, a password change): ask the database once per request.
  const { data: active, error: activeError } = await supabase.rpc('session_is_active');
  if (activeError) return 'unavailable';
  if (active !== true) {
    await supabase.auth.signOut({ scope: 'local' });
    return null;
  }
  return {
    id: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : '',
    sessionId: typeof claims.session_id === 'string' ? claims.session_id : '',
    aal: typeof claims.aal === 'string' ? claims.aal : 'aal1',
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

export async function requireUser(request: Request, context: AppLoadContext): Promise<SignedInUser> {
  const user = await getSignedInUser(request, context);
  if (!user) {
    const url = new URL(request.url);
    const next = `${url.pathname}${url.search}`;
    throw redirectWithSession(`/login?next=${encodeURIComponent(next)}`, request, context);
  }
  return user;
}

/** Auth pages send signed-in visitors on to their home. */
export async function requireAnonymous(request: Request, context: AppLoadContext): Promise<void> {
  if (await getSignedInUser(request, context)) throw redirectWithSession(SIGNED_IN_HOME, request, context);
}
