// Proves the person knows their current password before it is replaced. GoTrue checks
// `current_password` only behind a server setting the CLI does not expose, so the app asks the auth
// server itself with a throwaway client, and ends the session that check created.
import { createClient } from '@supabase/supabase-js';
import { friendlyAuthError } from './auth-errors.server.ts';
import { supabaseEnv } from './env.server.ts';
import { limitSignInAttempt } from './rate-limit.server.ts';
import { backendFetch } from './backend-fetch.server.ts';

export type PasswordCheck = 'ok' | 'wrong' | 'unavailable' | { rateLimited: string };

export async function checkCurrentPassword(
  request: Request,
  email: string,
  password: string,
): Promise<PasswordCheck> {
  // A password check is a sign-in attempt: it counts against the visitor and the account.
  const limited = await limitSignInAttempt(request, email);
  if (limited) return limited.code === 'rate_limited' ? { rateLimited: limited.message } : 'unavailable';
  const { url, anonKey } = supabaseEnv();
  const probe = createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: backendFetch },
  });
  const { data, error } = await probe.auth.signInWithPassword({ email, password });
  if (error) {
    if (error.code === 'invalid_credentials') return 'wrong';
    const friendly = friendlyAuthError(error);
    return friendly.code === 'rate_limited' ? { rateLimited: friendly.message } : 'unavailable';
  }
  if (data.session) await probe.auth.signOut({ scope: 'local' });
  return 'ok';
}
