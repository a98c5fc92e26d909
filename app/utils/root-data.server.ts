// What the root route's loader sends every page: the Supabase address and public key for the
// browser's session tick, and who is signed in. Its own module, imported by root.tsx alone, so the
// browser build folds its empty stand-in into root's file (see sign-in-page.server.ts).
import type { AppLoadContext } from '@remix-run/node';
import { getSignedInUser } from './auth.server.ts';
import { supabaseEnv } from './env.server.ts';

export async function rootData(request: Request, context: AppLoadContext) {
  const user = await getSignedInUser(request, context);
  // The anon key is public by design; the browser needs it for the session tick.
  const { url, anonKey } = supabaseEnv();
  return { supabase: { url, anonKey }, userId: user?.id ?? null };
}
