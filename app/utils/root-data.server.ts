// What the root route's loader sends every page: the Supabase address and public key for the
// browser's session tick, who is signed in, and the one-time flash message left by the redirect that
// led here. Its own module, imported by root.tsx alone, so the browser build folds its empty stand-in
// into root's file (see sign-in-page.server.ts); for the same reason `json` is called here, not there.
import type { AppLoadContext } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getSignedInUser } from './session/user.server.ts';
import { supabaseEnv } from './env.server.ts';
import { readFlash } from './flash.server.ts';

export async function rootData(request: Request, context: AppLoadContext) {
  const [user, { flash, clear }] = await Promise.all([getSignedInUser(request, context), readFlash(request)]);
  // The anon key is public by design; the browser needs it for the session tick.
  const { url, anonKey } = supabaseEnv();
  // The flash key is left out when there is none: every byte of /login's inline data counts.
  const data = { supabase: { url, anonKey }, userId: user?.id ?? null, ...(flash ? { flash } : {}) };
  // Reading the flash spends it. (Remix keeps a loader's Set-Cookie on the document response.)
  return json(data, clear ? { headers: { 'Set-Cookie': clear, 'Cache-Control': 'private, no-store' } } : {});
}
