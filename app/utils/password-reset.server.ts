// Who may choose a new password without typing the current one: only a session that a recovery link
// started, for a short time after, once. Everyone else changes it on /account/security, which asks for
// the current password (decision 004); see decision 006 for why the proof is a marker plus the
// session's own `amr` claim rather than a signed cookie.
import type { AppLoadContext } from '@remix-run/node';
import { parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import {
  getSignedInUser,
  redirectWithSession,
  type AuthenticationMethod,
  type SignedInUser,
} from './session/user.server.ts';
import { isHttps } from './session/supabase.server.ts';
import { signedIn } from './session/signed-in.server.ts';

const MARKER = 'crewboard-recovery';
const MARKER_PATH = '/reset-password';
/** How long after the recovery link the new password may be chosen: GoTrue's OTP lifetime (SPEC §9). */
export const RECOVERY_WINDOW_SECONDS = 10 * 60;

// GoTrue records the email-link grant in `amr`: `otp` for a token_hash verified by POST /verify (what
// /auth/confirm does), `recovery` for a PKCE recovery code (internal/api/verify.go, models/amr.go).
const EMAIL_LINK_METHODS = new Set(['otp', 'recovery']);

/**
 * The Set-Cookie value /auth/confirm adds after verifying a recovery link: the new session's id,
 * readable only by the server and only on /reset-password.
 */
export function recoveryMarker(sessionId: string, request: Request): string {
  return serializeCookieHeader(MARKER, sessionId, {
    path: MARKER_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    maxAge: RECOVERY_WINDOW_SECONDS,
  });
}

/** Spends the marker: added to the answer of a successful reset. */
export function spentRecoveryMarker(request: Request): string {
  return serializeCookieHeader(MARKER, '', {
    path: MARKER_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    maxAge: 0,
  });
}

function markedSession(request: Request): string | null {
  const found = parseCookieHeader(request.headers.get('Cookie') ?? '').find((c) => c.name === MARKER);
  return found?.value ? found.value : null;
}

export type RecoveryState = 'allowed' | 'expired';

/**
 * What a session's `amr` allows: 'refused' unless it began with an email link, 'expired' once that is
 * more than the window ago.
 */
export function recoveryState(amr: AuthenticationMethod[], nowSeconds: number): RecoveryState | 'refused' {
  const startedByLink = amr.filter((a) => EMAIL_LINK_METHODS.has(a.method));
  if (startedByLink.length === 0) return 'refused';
  const linkedAt = Math.max(...startedByLink.map((a) => a.timestamp));
  return nowSeconds - linkedAt <= RECOVERY_WINDOW_SECONDS ? 'allowed' : 'expired';
}

/**
 * Lets a recovery session through, at the assurance level its account needs (an account with an
 * authenticator app steps up on /login/mfa first and comes back). Without a marker for this very
 * session: signed out → /login, signed in → /account/security. With one whose time is up: 'expired'.
 *
 * The marker alone proves nothing (a cookie anyone can write); what it names must be this session,
 * and this session's token, signed by the auth server, must say it began with an email link less
 * than ten minutes ago. A password session, or one an email link started earlier, never passes.
 */
export async function requireRecoverySession(
  request: Request,
  context: AppLoadContext,
): Promise<{ user: SignedInUser; state: RecoveryState }> {
  const current = await getSignedInUser(request, context);
  if (!current) throw redirectWithSession('/login', request, context);
  if (!current.sessionId || markedSession(request) !== current.sessionId) {
    throw redirectWithSession('/account/security', request, context);
  }
  const { user } = await signedIn(request, context);
  const state = recoveryState(user.amr, Date.now() / 1000);
  if (state === 'refused') throw redirectWithSession('/account/security', request, context);
  return { user, state };
}
