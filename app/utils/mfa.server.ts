// Proving possession of the authenticator app: what /login/mfa, enrolment and removing a factor share.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';
import { friendlyAuthError, type FriendlyError } from './auth-errors.server.ts';
import { MESSAGES } from './messages.ts';
import { limitSignInAttempt } from './rate-limit.server.ts';

export interface TotpFactor {
  id: string;
  friendlyName: string;
  verified: boolean;
  createdAt: string;
}

/** The user's authenticator apps, from the auth server (a request to /user: security pages only). */
export async function listTotpFactors(
  supabase: SupabaseClient<Database>,
): Promise<TotpFactor[] | 'unavailable'> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) return 'unavailable';
  return data.all
    .filter((f) => f.factor_type === 'totp')
    .map((f) => ({
      id: f.id,
      friendlyName: f.friendly_name ?? '',
      verified: f.status === 'verified',
      createdAt: f.created_at,
    }));
}

/**
 * Checks a code against the given factors in order (someone with two apps may type either's code). Success raises this session to aal2 and writes its new cookies.
 */
export async function verifyTotpCode(
  request: Request,
  supabase: SupabaseClient<Database>,
  userId: string,
  factorIds: string[],
  code: string,
): Promise<{ ok: true } | { ok: false; error: FriendlyError }> {
  // Six digits are guessable: attempts count against the visitor and the account, like sign-ins.
  const limited = await limitSignInAttempt(request, userId);
  if (limited) return { ok: false, error: limited };
  let failure: FriendlyError = { code: 'mfa_invalid', message: MESSAGES.mfa_invalid };
  for (const factorId of factorIds) {
    const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
    if (!error) return { ok: true };
    failure = friendlyAuthError(error);
    // Only a wrong code is worth trying on the next factor; anything else will fail there too.
    if (failure.code !== 'mfa_invalid') return { ok: false, error: failure };
  }
  return { ok: false, error: failure };
}
