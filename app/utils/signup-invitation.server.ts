// An invitation carried through sign-up. "Create account" on /invite/:token opens /signup with the
// token; sign-up stores it in the new account's user metadata (`invitation`), which the auth server
// keeps until the email is confirmed, whichever way: the link in the confirmation email (on any
// device) or its 6-digit code. Right after confirming, the invitation is accepted as the new person
// (accept_invitation decides, as for anyone: their confirmed address must be the invited one) and they
// land in its workspace. The token is then removed from the metadata, so later sign-ins are ordinary.
import type { SupabaseClient, User } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';

/** An invitation token as create_invitation makes it: 32 random bytes, hex. */
const INVITATION_TOKEN = /^[0-9a-f]{64}$/;

export function invitationToken(value: unknown): string | null {
  return typeof value === 'string' && INVITATION_TOKEN.test(value) ? value : null;
}

export interface SignupInvitation {
  token: string;
  email: string;
  workspace: string;
}

/** The open invitation behind `token`, for the sign-up form; null when it cannot be accepted any more. */
export async function openInvitation(
  supabase: SupabaseClient<Database>,
  value: unknown,
): Promise<SignupInvitation | null> {
  const token = invitationToken(value);
  if (!token) return null;
  const { data, error } = await supabase.rpc('invitation_preview', { token });
  const found = error ? null : data[0];
  if (!found || found.status !== 'pending') return null;
  return { token, email: found.email, workspace: found.workspace_name };
}

/**
 * Where a person who has just confirmed their email (and so has a session on `supabase`) goes: the
 * workspace of the invitation they signed up from, now accepted, or `fallback` without one. An
 * invitation that can no longer be accepted sends them to its page, which says why.
 */
export async function landingAfterConfirmation(
  supabase: SupabaseClient<Database>,
  user: User | null | undefined,
  fallback: string,
): Promise<string> {
  const token = invitationToken(user?.user_metadata?.invitation);
  if (!token) return fallback;
  const { data, error } = await supabase.rpc('accept_invitation', { token });
  // Carried once: whatever came of it, the next sign-in is an ordinary one.
  await supabase.auth.updateUser({ data: { invitation: null } });
  return error ? `/invite/${token}` : `/w/${data.slug}`;
}
