// Proves the person knows their current password before it is replaced. GoTrue checks
// `current_password` only behind a server setting the CLI does not expose, so the app asks the auth
// server itself with a throwaway client, and ends the session that check created.
import { createClient } from '@supabase/supabase-js';
import { supabaseEnv } from './env.server.ts';
import { NodeWebSocket } from './websocket.server.ts';

export type PasswordCheck = 'ok' | 'wrong' | 'unavailable';

export async function checkCurrentPassword(email: string, password: string): Promise<PasswordCheck> {
  const { url, anonKey } = supabaseEnv();
  const probe = createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NodeWebSocket },
  });
  const { data, error } = await probe.auth.signInWithPassword({ email, password });
  if (error) return error.code === 'invalid_credentials' ? 'wrong' : 'unavailable';
  if (data.session) await probe.auth.signOut({ scope: 'local' });
  return 'ok';
}
