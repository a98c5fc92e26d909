// Invitation emails leave the app: the `send-invitation` Edge Function (supabase/functions) renders
// and sends them over its own SMTP secrets. It is called with the inviter's session, so the database
// decides whether this person may send this invitation, as it decides everything else.
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';

export interface InvitationToSend {
  /** The invitation's id, from create_invitation. */
  id: string;
  /** Its current token, from create_invitation or resend_invitation: the link in the email. */
  token: string;
}

/**
 * `sent` when the function took the email; `unconfigured` when the backend has no such function
 * (not deployed); `failed` otherwise (refused, or the SMTP server did not take it).
 */
export async function sendInvitationEmail(
  supabase: SupabaseClient,
  invitation: InvitationToSend,
): Promise<'sent' | 'unconfigured' | 'failed'> {
  const { error } = await supabase.functions.invoke('send-invitation', {
    body: { invitation_id: invitation.id, token: invitation.token },
  });
  if (!error) return 'sent';
  const response: Response | null = error instanceof FunctionsHttpError ? error.context : null;
  const status = response?.status ?? null;
  if (status === 404) return 'unconfigured';
  console.warn(`Invitation email ${invitation.id} failed: ${status ?? error.message}`);
  return 'failed';
}
