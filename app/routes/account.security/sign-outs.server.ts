// Signing out: one of the account's devices (its session), every other one, or everywhere.
import { badRequest, classifyDataError } from '~/utils/data-errors.server.ts';
import { SessionSignOutSchema } from '~/utils/account-schemas.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { reply, type SecurityRequest } from './reply.server.ts';

export async function signOutSession({ supabase }: SecurityRequest, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SessionSignOutSchema });
  if (submission.status !== 'success') throw badRequest();
  const { data, error } = await supabase.rpc('sign_out_session', { session_id: submission.value.sessionId });
  if (error) {
    const failure = classifyDataError(error);
    return reply('session', { notice: failure.message }, failure.status);
  }
  return reply('session', {
    notice: data ? 'That device was signed out.' : 'That session had already ended.',
  });
}

export async function signOutOthers({ supabase }: SecurityRequest) {
  const { error } = await supabase.auth.signOut({ scope: 'others' });
  if (error) return reply('others', { notice: MESSAGES.backend_unavailable }, 503);
  return reply('others', { notice: 'Your other devices were signed out.' });
}

/** Every session of this account ends, this one included. */
export async function signOutEverywhere({ request, context, supabase }: SecurityRequest) {
  await supabase.auth.signOut({ scope: 'global' });
  return redirectWithSession('/login', request, context);
}
