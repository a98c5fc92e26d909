import { getFormProps, type SubmissionResult } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import type * as z from 'zod/mini';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import {
  Field,
  FormMessage,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { Panel } from '~/components/panel.tsx';
import { deleteAccount, removeAccountFiles } from '~/utils/admin.server.ts';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { checkCurrentPassword, type PasswordCheck } from '~/utils/password-check.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
  SecurityIntentSchema,
  SessionSignOutSchema,
} from '~/utils/account-schemas.ts';
import { siteUrl } from '~/utils/site.server.ts';
import { describeDevice } from '~/utils/user-agent.ts';
import { relativeTime } from '~/utils/format.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { DeleteAccount } from './delete-account.tsx';
import { Sessions } from './sessions.tsx';
import { dataErrorResponse, badRequest } from '~/utils/data-errors.server.ts';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, supabase } = await signedIn(request, context);
  const { data, error } = await supabase.rpc('my_sessions');
  if (error) throw dataErrorResponse(error);
  const now = Date.now();
  return json({
    // The session being at aal2 means a verified factor was used: no request to the auth server needed.
    twoStepOn: user.aal === 'aal2',
    sessions: data.map((s) => ({
      id: s.id,
      device: describeDevice(s.user_agent),
      lastSeen: relativeTime(s.last_seen_at, now),
      signedIn: relativeTime(s.created_at, now),
      current: s.is_current,
    })),
  });
}

export interface Blocker {
  name: string;
  slug: string;
}

type Intent = z.infer<typeof SecurityIntentSchema>;

/** Every answer of the action has one shape, so the page can read any of them. */
function reply(
  intent: Intent,
  fields: { result?: SubmissionResult<string[]> | null; notice?: string | null; blockers?: Blocker[] | null },
  status = 200,
) {
  return json(
    {
      intent,
      result: fields.result ?? null,
      notice: fields.notice ?? null,
      blockers: fields.blockers ?? null,
    },
    { status },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, supabase } = await signedIn(request, context);
  const formData = await readForm(request);
  const parsedIntent = SecurityIntentSchema.safeParse(formData.get('intent'));
  if (!parsedIntent.success) throw badRequest();
  const intent = parsedIntent.data;

  if (intent === 'session') {
    const submission = parseWithZod(formData, { schema: SessionSignOutSchema });
    if (submission.status !== 'success') throw badRequest();
    const { data, error } = await supabase.rpc('sign_out_session', {
      session_id: submission.value.sessionId,
    });
    if (error) {
      const failure = classifyDataError(error);
      return reply(intent, { notice: failure.message }, failure.status);
    }
    return reply(intent, {
      notice: data ? 'That device was signed out.' : 'That session had already ended.',
    });
  }

  if (intent === 'others') {
    const { error } = await supabase.auth.signOut({ scope: 'others' });
    if (error) return reply(intent, { notice: MESSAGES.backend_unavailable }, 503);
    return reply(intent, { notice: 'Your other devices were signed out.' });
  }

  if (intent === 'everywhere') {
    // Every session of this account ends, this one included.
    await supabase.auth.signOut({ scope: 'global' });
    return redirectWithSession('/login', request, context);
  }

  // What is left changes the account itself: ask the auth server who this is, not only the cookie's
  // claims, and ask the person for their current password.
  const { data: current, error: userError } = await supabase.auth.getUser();
  if (userError || !current.user)
    throw redirectWithSession('/login?next=/account/security', request, context);
  const email = current.user.email ?? '';
  // Each change below first asks for the current password: null when it is right, else the answer.
  const unlessCurrentPassword = async (
    submission: {
      value: { currentPassword: string };
      reply: (options: {
        fieldErrors: Record<string, string[]>;
        hideFields: string[];
      }) => SubmissionResult<string[]>;
    },
    hideFields: string[],
  ) => {
    const check = await checkCurrentPassword(request, email, submission.value.currentPassword);
    if (check === 'ok') return null;
    const result = submission.reply({
      fieldErrors: { currentPassword: [passwordCheckMessage(check)] },
      hideFields,
    });
    return reply(intent, { result }, check === 'wrong' ? 400 : check === 'unavailable' ? 503 : 429);
  };

  if (intent === 'password') {
    const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
    const hideFields = ['currentPassword', 'password'];
    if (submission.status !== 'success')
      return reply(intent, { result: submission.reply({ hideFields }) }, 400);
    if (submission.value.password.toLowerCase() === email.toLowerCase()) {
      const result = submission.reply({ fieldErrors: { password: [MESSAGES.weak_password] }, hideFields });
      return reply(intent, { result }, 400);
    }
    const refused = await unlessCurrentPassword(submission, hideFields);
    if (refused) return refused;
    const { error } = await supabase.auth.updateUser({ password: submission.value.password });
    if (error) {
      const friendly = friendlyAuthError(error, 'password');
      const errors =
        friendly.code === 'weak_password'
          ? { fieldErrors: { password: [friendly.message] } }
          : { formErrors: [friendly.message] };
      return reply(intent, { result: submission.reply({ ...errors, hideFields }) }, 400);
    }
    return reply(intent, {
      result: submission.reply({ resetForm: true, hideFields }),
      notice: 'Your password has been changed. Your other devices were signed out.',
    });
  }

  if (intent === 'email') {
    const submission = parseWithZod(formData, { schema: ChangeEmailSchema });
    const hideFields = ['currentPassword'];
    if (submission.status !== 'success')
      return reply(intent, { result: submission.reply({ hideFields }) }, 400);
    const refused = await unlessCurrentPassword(submission, hideFields);
    if (refused) return refused;
    const { error } = await supabase.auth.updateUser(
      { email: submission.value.email },
      { emailRedirectTo: `${siteUrl(request)}/account/security` },
    );
    if (error && error.code !== 'email_exists') {
      const friendly = friendlyAuthError(error);
      return reply(intent, { result: submission.reply({ formErrors: [friendly.message], hideFields }) }, 400);
    }
    // A taken address gets the same answer: this page must not tell who has an account.
    return reply(intent, {
      result: submission.reply({ resetForm: true, hideFields }),
      notice: `To finish, follow the links we sent to ${email} and to ${submission.value.email}.`,
    });
  }

  // 'delete-account'
  const submission = parseWithZod(formData, { schema: DeleteAccountSchema });
  const hideFields = ['currentPassword'];
  if (submission.status !== 'success')
    return reply(intent, { result: submission.reply({ hideFields }) }, 400);
  const refused = await unlessCurrentPassword(submission, hideFields);
  if (refused) return refused;
  const { data: owned, error: ownedError } = await supabase.rpc('owned_workspaces');
  if (ownedError) {
    const failure = classifyDataError(ownedError);
    return reply(
      intent,
      { result: submission.reply({ formErrors: [failure.message], hideFields }) },
      failure.status,
    );
  }
  // A shared workspace must keep an owner (the database refuses too; this says what to do about it).
  const blockers = owned.filter((w) => !w.is_personal && w.other_members > 0);
  if (blockers.length > 0) {
    return reply(
      intent,
      {
        result: submission.reply({ hideFields }),
        blockers: blockers.map(({ name, slug }) => ({ name, slug })),
      },
      409,
    );
  }
  if ((await deleteAccount(user.id)) === 'failed') {
    return reply(
      intent,
      { result: submission.reply({ formErrors: [MESSAGES.backend_unavailable], hideFields }) },
      503,
    );
  }
  const gone = owned.filter((w) => w.is_personal || w.other_members === 0).map((w) => w.id);
  await removeAccountFiles(user.id, gone);
  // The sessions went with the account; this clears the cookies.
  await supabase.auth.signOut({ scope: 'local' });
  return redirectWithFlash('/login', 'account_deleted', request, context);
}

function passwordCheckMessage(check: Exclude<PasswordCheck, 'ok'>): string {
  if (check === 'wrong') return 'That is not your current password.';
  return check === 'unavailable' ? MESSAGES.backend_unavailable : check.rateLimited;
}

export default function Security() {
  const { sessions, twoStepOn } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [passwordForm, passwordFields] = useSchemaForm(
    'change-password',
    ChangePasswordSchema,
    actionData?.intent === 'password' ? actionData.result : undefined,
  );
  const [emailForm, emailFields] = useSchemaForm(
    'change-email',
    ChangeEmailSchema,
    actionData?.intent === 'email' ? actionData.result : undefined,
  );
  useClearPasswordOnReply(passwordFields.currentPassword.id, actionData);
  useClearPasswordOnReply(passwordFields.password.id, actionData);
  useClearPasswordOnReply(emailFields.currentPassword.id, actionData);
  const notice = actionData?.notice;
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Security</h1>
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
      <Panel title="Two-step verification">
        <p className="text-sm text-slate-700">
          {twoStepOn
            ? 'On: signing in asks for a code from your authenticator app.'
            : 'Off: add an authenticator app so that a password alone cannot open your account.'}
        </p>
        <Link
          to="/account/security/mfa"
          className="mt-3 inline-block text-sm font-medium text-indigo-600 hover:underline"
        >
          Manage two-step verification
        </Link>
      </Panel>
      <Panel title="Change password">
        <Form method="post" {...getFormProps(passwordForm)} className="space-y-4">
          {passwordForm.errors ? <FormMessage>{passwordForm.errors.join(' ')}</FormMessage> : null}
          <Field
            label="Current password"
            field={passwordFields.currentPassword}
            type="password"
            autoComplete="current-password"
          />
          <Field
            label="New password"
            field={passwordFields.password}
            type="password"
            autoComplete="new-password"
            hint="8 to 72 characters."
          />
          <SubmitButton name="intent" value="password">
            Change password
          </SubmitButton>
        </Form>
      </Panel>
      <Panel title="Change email">
        <Form method="post" {...getFormProps(emailForm)} className="space-y-4">
          {emailForm.errors ? <FormMessage>{emailForm.errors.join(' ')}</FormMessage> : null}
          <Field
            label="Email"
            field={emailFields.email}
            type="email"
            autoComplete="email"
            hint="We send a link to your current and your new address; both must be followed."
          />
          <Field
            label="Current password"
            field={emailFields.currentPassword}
            type="password"
            autoComplete="current-password"
          />
          <SubmitButton name="intent" value="email">
            Change email
          </SubmitButton>
        </Form>
      </Panel>
      <Sessions sessions={sessions} />
      <DeleteAccount reply={actionData} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Security · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
