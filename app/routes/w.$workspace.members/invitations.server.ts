// Invitations: made by an admin, sent by email through the `send-invitation` function, resent or
// revoked. The link also shows on the page, to pass on when the email cannot be sent.
import { json, type AppLoadContext } from '@remix-run/node';
import { classifyDataError, notFound } from '~/utils/data-errors.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { sendInvitationEmail } from '~/utils/mail.server.ts';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { siteUrl } from '~/utils/site.server.ts';
import { InviteSchema } from '~/utils/workspace-schemas.ts';

interface MembersRequest {
  request: Request;
  context: AppLoadContext;
  supabase: RequestSupabase['supabase'];
  workspaceId: string;
  /** The members page, to come back to. */
  back: string;
}

/** Emails the invitation's link, and says whether it went. */
async function deliver({ request, supabase }: MembersRequest, id: string, token: string, to: string) {
  const email = await sendInvitationEmail(supabase, { id, token });
  return { link: `${siteUrl(request)}/invite/${token}`, email, to };
}

export async function invite(page: MembersRequest, formData: FormData) {
  const intent = 'invite' as const;
  const submission = parseWithZod(formData, { schema: InviteSchema });
  if (submission.status !== 'success')
    return json({ intent, result: submission.reply(), sent: null }, { status: 400 });
  const { data, error } = await page.supabase.rpc('create_invitation', {
    workspace_id: page.workspaceId,
    ...submission.value,
  });
  if (error) {
    const failure = classifyDataError(error);
    const message = failure.kind === 'conflict' ? 'That person is already a member.' : failure.message;
    const result = submission.reply({ fieldErrors: { email: [message] } });
    return json({ intent, result, sent: null }, { status: failure.status });
  }
  const created = data[0];
  const sent = await deliver(
    page,
    created?.invitation_id ?? '',
    created?.token ?? '',
    submission.value.email,
  );
  return json({ intent, result: submission.reply({ resetForm: true }), sent });
}

export async function resend(page: MembersRequest, id: string) {
  const { supabase } = page;
  const { data: token, error } = await supabase.rpc('resend_invitation', { invitation_id: id });
  if (error) throw notFound();
  const { data: invitation } = await supabase.from('invitations').select('email').eq('id', id).single();
  if (!invitation) throw notFound();
  return json({
    intent: 'resend' as const,
    result: null,
    sent: await deliver(page, id, token, invitation.email),
  });
}

export async function revoke({ request, context, supabase, back }: MembersRequest, id: string) {
  const { data, error } = await supabase
    .from('invitations')
    .update({ revoked_at: new Date().toISOString() })
    .eq('id', id)
    .select('id');
  if (error || data.length !== 1) throw notFound();
  return redirectWithSession(back, request, context);
}

export type { MembersRequest };
