// Changes to the account itself: its password, its email address, or the account gone. Each asks the
// auth server who this is (not only the cookie's claims), and the person for their current password.
import type { SubmissionResult } from '@conform-to/dom';
import { deleteAccount, removeAccountFiles } from '~/utils/admin.server.ts';
import { ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema } from '~/utils/account-schemas.ts';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { checkCurrentPassword, type PasswordCheck } from '~/utils/password-check.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { siteUrl } from '~/utils/site.server.ts';
import { reply, type SecurityRequest } from './reply.server.ts';

type AccountChange = 'password' | 'email' | 'delete-account';

interface PasswordGuarded {
  value: { currentPassword: string };
  reply: (options: {
    fieldErrors: Record<string, string[]>;
    hideFields: string[];
  }) => SubmissionResult<string[]>;
}

function passwordCheckMessage(check: Exclude<PasswordCheck, 'ok'>): string {
  if (check === 'wrong') return 'That is not your current password.';
  return check === 'unavailable' ? MESSAGES.backend_unavailable : check.rateLimited;
}

/** The account's email address, from the auth server; signed out if it does not know this session. */
async function currentEmail({ request, context, supabase }: SecurityRequest): Promise<string> {
  const { data, error } = await supabase.auth.getUser();
  if (error || !data.user) throw redirectWithSession('/login?next=/account/security', request, context);
  return data.user.email ?? '';
}

/** Null when the form's current password is right; otherwise the answer that says it is not. */
async function unlessCurrentPassword(
  intent: AccountChange,
  request: Request,
  email: string,
  submission: PasswordGuarded,
  hideFields: string[],
) {
  const check = await checkCurrentPassword(request, email, submission.value.currentPassword);
  if (check === 'ok') return null;
  const result = submission.reply({
    fieldErrors: { currentPassword: [passwordCheckMessage(check)] },
    hideFields,
  });
  return reply(intent, { result }, check === 'wrong' ? 400 : check === 'unavailable' ? 503 : 429);
}

export async function changePassword(page: SecurityRequest, formData: FormData) {
  const email = await currentEmail(page);
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  const hideFields = ['currentPassword', 'password'];
  if (submission.status !== 'success')
    return reply('password', { result: submission.reply({ hideFields }) }, 400);
  if (submission.value.password.toLowerCase() === email.toLowerCase()) {
    const result = submission.reply({ fieldErrors: { password: [MESSAGES.weak_password] }, hideFields });
    return reply('password', { result }, 400);
  }
  const refused = await unlessCurrentPassword('password', page.request, email, submission, hideFields);
  if (refused) return refused;
  const { error } = await page.supabase.auth.updateUser({ password: submission.value.password });
  if (error) {
    const friendly = friendlyAuthError(error, 'password');
    const errors =
      friendly.code === 'weak_password'
        ? { fieldErrors: { password: [friendly.message] } }
        : { formErrors: [friendly.message] };
    return reply('password', { result: submission.reply({ ...errors, hideFields }) }, 400);
  }
  return reply('password', {
    result: submission.reply({ resetForm: true, hideFields }),
    notice: 'Your password has been changed. Your other devices were signed out.',
  });
}

export async function changeEmail(page: SecurityRequest, formData: FormData) {
  const email = await currentEmail(page);
  const submission = parseWithZod(formData, { schema: ChangeEmailSchema });
  const hideFields = ['currentPassword'];
  if (submission.status !== 'success')
    return reply('email', { result: submission.reply({ hideFields }) }, 400);
  const refused = await unlessCurrentPassword('email', page.request, email, submission, hideFields);
  if (refused) return refused;
  const { error } = await page.supabase.auth.updateUser(
    { email: submission.value.email },
    { emailRedirectTo: `${siteUrl(page.request)}/account/security` },
  );
  if (error && error.code !== 'email_exists') {
    const friendly = friendlyAuthError(error);
    return reply('email', { result: submission.reply({ formErrors: [friendly.message], hideFields }) }, 400);
  }
  // A taken address gets the same answer: this page must not tell who has an account.
  return reply('email', {
    result: submission.reply({ resetForm: true, hideFields }),
    notice: `To finish, follow the links we sent to ${email} and to ${submission.value.email}.`,
  });
}

export async function deleteTheAccount(page: SecurityRequest, formData: FormData) {
  const { request, context, supabase, userId } = page;
  const email = await currentEmail(page);
  const intent = 'delete-account';
  const submission = parseWithZod(formData, { schema: DeleteAccountSchema });
  const hideFields = ['currentPassword'];
  if (submission.status !== 'success')
    return reply(intent, { result: submission.reply({ hideFields }) }, 400);
  const refused = await unlessCurrentPassword(intent, request, email, submission, hideFields);
  if (refused) return refused;
  const { data: owned, error: ownedError } = await supabase.rpc('owned_workspaces');
  if (ownedError) {
    const failure = classifyDataError(ownedError);
    const result = submission.reply({ formErrors: [failure.message], hideFields });
    return reply(intent, { result }, failure.status);
  }
  // A shared workspace must keep an owner (the database refuses too; this says what to do about it).
  const blockers = owned.filter((w) => !w.is_personal && w.other_members > 0);
  if (blockers.length > 0) {
    const result = submission.reply({ hideFields });
    return reply(intent, { result, blockers: blockers.map(({ name, slug }) => ({ name, slug })) }, 409);
  }
  if ((await deleteAccount(userId)) === 'failed') {
    const result = submission.reply({ formErrors: [MESSAGES.backend_unavailable], hideFields });
    return reply(intent, { result }, 503);
  }
  const gone = owned.filter((w) => w.is_personal || w.other_members === 0).map((w) => w.id);
  await removeAccountFiles(userId, gone);
  // The sessions went with the account; this clears the cookies.
  await supabase.auth.signOut({ scope: 'local' });
  return redirectWithFlash('/login', 'account_deleted', request, context);
}
