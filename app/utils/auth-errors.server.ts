// Turns the account service's errors into the SPEC's catalogue (server only: it needs supabase-js).
import { isAuthError, isAuthRetryableFetchError } from '@supabase/supabase-js';

import { MESSAGES, rateLimitedMessage } from './messages.ts';

export interface FriendlyError {
  code: string;
  message: string;
}

/** Maps an auth error to the SPEC's catalogue; unknown failures read as the server being unavailable. */
export function friendlyAuthError(
  error: unknown,
  context: 'sign-in' | 'code' | 'link' | 'password' = 'sign-in',
): FriendlyError {
  if (!isAuthError(error) || isAuthRetryableFetchError(error) || (error.status ?? 0) >= 500) {
    return { code: 'backend_unavailable', message: MESSAGES.backend_unavailable };
  }
  const code = error.code ?? '';
  if (code === 'over_request_rate_limit' || code === 'over_email_send_rate_limit' || error.status === 429) {
    const seconds = Number(/after (\d+) seconds/.exec(error.message)?.[1] ?? 60);
    return { code: 'rate_limited', message: rateLimitedMessage(seconds) };
  }
  if (
    code === 'mfa_verification_failed' ||
    code === 'mfa_challenge_expired' ||
    code === 'mfa_factor_not_found' ||
    code === 'mfa_ip_address_mismatch'
  ) {
    return { code: 'mfa_invalid', message: MESSAGES.mfa_invalid };
  }
  if (code === 'insufficient_aal') return { code: 'mfa_required', message: MESSAGES.mfa_required };
  if (code === 'invalid_credentials') return { code, message: MESSAGES.invalid_credentials };
  if (code === 'email_not_confirmed') return { code, message: MESSAGES.email_not_confirmed };
  if (code === 'weak_password' || code === 'same_password')
    return { code: 'weak_password', message: MESSAGES.weak_password };
  if (
    code === 'otp_expired' ||
    code === 'flow_state_expired' ||
    code === 'flow_state_not_found' ||
    code === 'bad_code_verifier'
  ) {
    return context === 'code'
      ? { code: 'code_invalid', message: MESSAGES.code_invalid }
      : { code: 'link_invalid', message: MESSAGES.link_invalid };
  }
  return { code: 'backend_unavailable', message: MESSAGES.backend_unavailable };
}

/** The status an answer carrying this error gets: 429 for limits, 503 for an outage, else 400. */
export function friendlyStatus(error: FriendlyError): 400 | 429 | 503 {
  if (error.code === 'rate_limited') return 429;
  if (error.code === 'backend_unavailable') return 503;
  return 400;
}
