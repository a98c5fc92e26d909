import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import {
  Field,
  FormMessage,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { redirectWithSession, requireUser } from '~/utils/auth.server.ts';
import { checkCurrentPassword } from '~/utils/password-check.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { ChangeEmailSchema, ChangePasswordSchema, SecurityIntentSchema } from '~/utils/schemas.ts';
import { siteUrl } from '~/utils/site.server.ts';
import { getSupabase } from '~/utils/supabase.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const url = new URL(request.url);
  return json({
    notice: url.searchParams.get('changed') === 'email' ? 'Your email address has been changed.' : null,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  await requireUser(request, context);
  const formData = await request.formData();
  const parsedIntent = SecurityIntentSchema.safeParse(formData.get('intent'));
  if (!parsedIntent.success) throw new Response('Unknown action', { status: 400 });
  const intent = parsedIntent.data;
  const { supabase } = getSupabase(request, context);
  // Security changes ask the auth server who this is, not only the cookie's claims.
  const { data: current, error: userError } = await supabase.auth.getUser();
  if (userError || !current.user)
    throw redirectWithSession('/login?next=/account/security', request, context);
  const email = current.user.email ?? '';

  if (intent === 'password') {
    const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
    const hide = ['currentPassword', 'password'];
    if (submission.status !== 'success')
      return json({ intent, result: submission.reply({ hideFields: hide }), notice: null }, { status: 400 });
    if (submission.value.password.toLowerCase() === email.toLowerCase()) {
      return json(
        {
          intent,
          result: submission.reply({ fieldErrors: { password: [MESSAGES.weak_password] }, hideFields: hide }),
          notice: null,
        },
        { status: 400 },
      );
    }
    const check = await checkCurrentPassword(email, submission.value.currentPassword);
    if (check !== 'ok') {
      const message = check === 'wrong' ? 'That is not your current password.' : MESSAGES.backend_unavailable;
      return json(
        {
          intent,
          result: submission.reply({ fieldErrors: { currentPassword: [message] }, hideFields: hide }),
          notice: null,
        },
        { status: check === 'wrong' ? 400 : 503 },
      );
    }
    const { error } = await supabase.auth.updateUser({ password: submission.value.password });
    if (error) {
      const friendly = friendlyAuthError(error, 'password');
      const reply =
        friendly.code === 'weak_password'
          ? { fieldErrors: { password: [friendly.message] } }
          : { formErrors: [friendly.message] };
      return json(
        { intent, result: submission.reply({ ...reply, hideFields: hide }), notice: null },
        { status: 400 },
      );
    }
    return json({
      intent,
      result: submission.reply({ resetForm: true, hideFields: hide }),
      notice: 'Your password has been changed. Your other devices were signed out.',
    });
  }

  if (intent === 'email') {
    const submission = parseWithZod(formData, { schema: ChangeEmailSchema });
    if (submission.status !== 'success')
      return json({ intent, result: submission.reply(), notice: null }, { status: 400 });
    const { error } = await supabase.auth.updateUser(
      { email: submission.value.email },
      { emailRedirectTo: `${siteUrl(request)}/account/security?changed=email` },
    );
    if (error && error.code !== 'email_exists') {
      const friendly = friendlyAuthError(error);
      return json(
        { intent, result: submission.reply({ formErrors: [friendly.message] }), notice: null },
        { status: 400 },
      );
    }
    // A taken address gets the same answer: this page must not tell who has an account.
    return json({
      intent,
      result: submission.reply({ resetForm: true }),
      notice: `To finish, follow the links we sent to ${email} and to ${submission.value.email}.`,
    });
  }

  if (intent === 'others') {
    const { error } = await supabase.auth.signOut({ scope: 'others' });
    if (error) return json({ intent, result: null, notice: MESSAGES.backend_unavailable }, { status: 503 });
    return json({ intent, result: null, notice: 'Your other devices were signed out.' });
  }

  // 'everywhere': every session of this account ends, this one included.
  await supabase.auth.signOut({ scope: 'global' });
  return redirectWithSession('/login', request, context);
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-label={title}>
      <h2 className="text-base font-semibold">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export default function Security() {
  const { notice: loaderNotice } = useLoaderData<typeof loader>();
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
  const notice = actionData?.notice ?? loaderNotice;
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Security</h1>
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
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
          <SubmitButton name="intent" value="email">
            Change email
          </SubmitButton>
        </Form>
      </Panel>
      <Panel title="Sessions">
        <div className="flex flex-col gap-3 sm:flex-row">
          <Form method="post" className="flex-1">
            <SubmitButton name="intent" value="others">
              Sign out other devices
            </SubmitButton>
          </Form>
          <Form method="post" className="flex-1">
            <SubmitButton name="intent" value="everywhere">
              Sign out everywhere
            </SubmitButton>
          </Form>
        </div>
      </Panel>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Security · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
