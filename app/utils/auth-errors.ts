// What the person reads when the account service says no (SPEC section 8). The code is for logs and tests.
import { isAuthError, isAuthRetryableFetchError } from '@supabase/supabase-js';

export const MESSAGES = {
  invalid_credentials: 'Email or password is incorrect.',
  email_not_confirmed: 'Confirm your email first. We can send the link again.',
  link_invalid: 'This link has expired or was already used. Request a new one.',
  code_invalid: 'That code is not valid or has expired.',
  pkce_missing:
    'This link was opened in a different browser. Enter the 6-digit code from the same email instead.',
  weak_password: 'Use 8 to 72 characters, and not your email address.',
  backend_unavailable: "We can't reach the server right now. Nothing was saved; try again in a moment.",
} as const;

export function rateLimitedMessage(seconds: number): string {
  return `Too many attempts. Try again in ${seconds} seconds.`;
}

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
