// send-invitation: emails an open invitation. Called by the app with the inviter's session and
// `{ invitation_id, token }` right after create_invitation or resend_invitation returned the token.
// The invitation is read as the caller, so row-level security decides: only an admin of its
// workspace sees it, anyone else gets 403 and nothing is sent. The token must be the invitation's
// current one, so the link in the email is one that works. Secrets: SMTP_URL, MAIL_FROM, SITE_URL.
import { callerId, clientAsCaller, env, json, UUID } from '../_shared/http.ts';
import { invitationMessage } from '../_shared/invitation-email.ts';
import { sendMail } from '../_shared/smtp.ts';

const TOKEN = /^[0-9a-f]{64}$/;

interface InvitationRow {
  email: string;
  role: string;
  expires_at: string;
  workspace: { name: string } | null;
}

Deno.serve(async (req) => {
  if (req.method !== 'POST') return json({ error: 'method_not_allowed' }, 405);
  const body = await req.json().catch(() => null);
  const id = typeof body?.invitation_id === 'string' ? body.invitation_id : '';
  const token = typeof body?.token === 'string' ? body.token : '';
  if (!UUID.test(id) || !TOKEN.test(token))
    return json({ error: 'bad_request', message: 'Send { invitation_id, token }.' }, 400);

  const supabase = clientAsCaller(req);
  const { data: invitation, error } = await supabase
    .from('invitations')
    .select('email, role, expires_at, workspace:workspaces(name)')
    .eq('id', id)
    .is('accepted_at', null)
    .is('revoked_at', null)
    .maybeSingle<InvitationRow>();
  // Not an admin: RLS hides the row; not signed in at all: the anon role may not read the table.
  if (error && error.code !== '42501')
    return json({ error: 'backend_unavailable', message: error.message }, 502);
  if (!invitation)
    return json(
      { error: 'forbidden', message: 'Only an admin of the workspace can send its invitations.' },
      403,
    );

  const { data: preview } = await supabase.rpc('invitation_preview', { token });
  const current = Array.isArray(preview) ? preview[0] : null;
  if (!current || current.status !== 'pending' || current.email !== invitation.email)
    return json({ error: 'invalid_token', message: 'The token is not this invitation’s current one.' }, 400);

  const me = callerId(req);
  const { data: profile } = me
    ? await supabase.from('profiles').select('display_name').eq('id', me).maybeSingle()
    : { data: null };
  const message = invitationMessage({
    to: invitation.email,
    inviter: profile?.display_name || 'A teammate',
    workspace: invitation.workspace?.name ?? 'a workspace',
    role: invitation.role,
    link: `${env('SITE_URL').replace(/\/$/, '')}/invite/${token}`,
    expiresAt: new Date(invitation.expires_at),
  });
  try {
    await sendMail(env('SMTP_URL'), {
      to: invitation.email,
      ...message,
    });
  } catch (failure) {
    console.error(`invitation ${id}: sending to ${invitation.email} failed: ${(failure as Error).message}`);
    return json({ error: 'email_failed', message: 'The email could not be sent.' }, 502);
  }
  console.log(`invitation ${id}: sent to ${invitation.email}`);
  return json({ sent: true, to: invitation.email });
});
