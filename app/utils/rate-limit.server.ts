// Sign-in attempts limited per visitor and per account, before the auth API is called. The auth
// API's own per-address limit sees only this server's address, so one visitor's failures there
// would refuse everyone (see supabase/migrations/*_sign_in_limits.sql). A browser that has signed
// in to the account before has an allowance of its own for it instead of the account's
// (device-cookie.server.ts), so failures from elsewhere never keep the owner out.
import { takeRateLimits } from './admin.server.ts';
import type { FriendlyError } from './auth-errors.server.ts';
import { clientAddress } from './client-address.server.ts';
import { accountKey, deviceAllowance } from './device-cookie.server.ts';
import { config } from './env.server.ts';
import { MESSAGES, rateLimitedMessage } from './messages.ts';

/** The limits refill over five minutes, as GoTrue's sign-in limit does. */
const WINDOW_SECONDS = 300;

/**
 * Counts one sign-in attempt (password, code, MFA code, password check, sign-up, recovery) for
 * the visitor and, when known, the target account (an email or a user id): against the allowance
 * of this browser's device cookie for that account when it has one, the account's otherwise, with
 * the same size. Returns the catalogue error to show when the attempt must not go ahead, or null.
 */
export async function limitSignInAttempt(
  request: Request,
  account: string | null,
): Promise<FriendlyError | null> {
  const { trustProxy, signInLimits } = config();
  const buckets = [
    { key: `sign-in:visitor:${clientAddress(request, trustProxy)}`, capacity: signInLimits.perVisitor },
  ];
  if (account) {
    const device = await deviceAllowance(request, account);
    buckets.push({
      key: device ? `sign-in:device:${device}` : `sign-in:account:${accountKey(account)}`,
      capacity: signInLimits.perAccount,
    });
  }
  const wait = await takeRateLimits(buckets, WINDOW_SECONDS);
  if (wait === 'unavailable') return { code: 'backend_unavailable', message: MESSAGES.backend_unavailable };
  if (wait > 0) return { code: 'rate_limited', message: rateLimitedMessage(wait) };
  return null;
}
