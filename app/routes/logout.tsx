import type { ActionFunctionArgs } from '@remix-run/node';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';

// POST only: signing out is a change, and a link (or a prefetch) must never do it.
export async function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { supabase } = getSupabase(request, context);
  // This device only; other devices keep their sessions (see /account/security for the rest).
  await supabase.auth.signOut({ scope: 'local' });
  return redirectWithSession('/', request, context);
}
