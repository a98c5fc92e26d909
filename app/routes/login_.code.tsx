import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { AuthCard, Field, FormMessage, Honeypot, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { friendlyAuthError, friendlyStatus } from '~/utils/auth-errors.server.ts';
import { redirectWithSession, requireAnonymous } from '~/utils/session/user.server.ts';
import { withDeviceCookie } from '~/utils/device-cookie.server.ts';
import { limitSignInAttempt } from '~/utils/rate-limit.server.ts';
import { safeRedirect } from '~/utils/redirect.ts';
import { readPublicForm } from '~/utils/request.server.ts';
import { CodeRequestSchema, CodeSchema } from '~/utils/schemas.ts';
import { siteUrl } from '~/utils/site.server.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';
import { SIGNED_IN_HOME } from '~/utils/home.ts';
import { landingAfterConfirmation } from '~/utils/signup-invitation.server.ts';

// Step one emails a 6-digit code (the same email carries a sign-in link); step two takes the code.

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const url = new URL(request.url);
  return json({ email: url.searchParams.get('email') ?? '', next: url.searchParams.get('next') ?? '' });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPublicForm(request);
  const { supabase } = getSupabase(request, context);
  if (formData.get('intent') === 'send') {
    const submission = parseWithZod(formData, { schema: CodeRequestSchema });
    if (submission.status !== 'success')
      return json({ step: 'email' as const, result: submission.reply() }, { status: 400 });
    const next = safeRedirect(formData.get('next'), SIGNED_IN_HOME);
    const limited = await limitSignInAttempt(request, submission.value.email);
    if (limited) {
      return json(
        { step: 'email' as const, result: submission.reply({ formErrors: [limited.message] }) },
        { status: friendlyStatus(limited) },
      );
    }
    const callback = `${siteUrl(request)}/auth/callback?next=${encodeURIComponent(next)}`;
    const { error } = await supabase.auth.signInWithOtp({
      email: submission.value.email,
      options: { shouldCreateUser: false, emailRedirectTo: callback },
    });
    // No account and "asked too recently" read like success: the page must not tell who has an account.
    const friendly = error ? friendlyAuthError(error, 'code') : null;
    if (friendly && friendly.code === 'backend_unavailable' && error?.code !== 'otp_disabled') {
      return json(
        { step: 'email' as const, result: submission.reply({ formErrors: [friendly.message] }) },
        { status: 503 },
      );
    }
    const params = new URLSearchParams({ email: submission.value.email, next });
    return redirectWithSession(`/login/code?${params}`, request, context);
  }
  const submission = parseWithZod(formData, { schema: CodeSchema });
  if (submission.status !== 'success')
    return json({ step: 'code' as const, result: submission.reply() }, { status: 400 });
  const { email, code, next } = submission.value;
  const limited = await limitSignInAttempt(request, email);
  const { data, error } = limited
    ? { data: null, error: null }
    : await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
  const friendly = limited ?? (error ? friendlyAuthError(error, 'code') : null);
  if (friendly) {
    return json(
      {
        step: 'code' as const,
        result: submission.reply({ formErrors: [friendly.message], hideFields: ['code'] }),
      },
      { status: friendlyStatus(friendly) },
    );
  }
  // The code of a sign-up's confirmation email works here too, and may carry an invitation.
  const landing = await landingAfterConfirmation(supabase, data?.user, safeRedirect(next, SIGNED_IN_HOME));
  const response = redirectWithSession(landing, request, context);
  return data?.user ? withDeviceCookie(response, request, data.user) : response;
}

export default function LoginWithCode() {
  const { email, next } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const codeStep = email !== '' || actionData?.step === 'code';
  const [emailForm, emailFields] = useSchemaForm(
    'code-request',
    CodeRequestSchema,
    actionData?.step === 'email' ? actionData.result : undefined,
  );
  const [codeForm, codeFields] = useSchemaForm(
    'code-entry',
    CodeSchema,
    actionData?.step === 'code' ? actionData.result : undefined,
  );
  return (
    <AuthCard
      title={codeStep ? 'Enter your code' : 'Sign in with a code'}
      footer={
        <Link to="/login" className="text-indigo-600 hover:underline">
          Sign in with a password instead
        </Link>
      }
    >
      {codeStep ? (
        <Form method="post" {...getFormProps(codeForm)} className="space-y-4">
          <Honeypot />
          <FormMessage tone="info">
            If <strong>{email}</strong> has an account, we sent it a 6-digit code and a sign-in link. The code
            expires in 10 minutes.
          </FormMessage>
          {codeForm.errors ? <FormMessage>{codeForm.errors.join(' ')}</FormMessage> : null}
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="next" value={next} />
          <Field label="Code" field={codeFields.code} type="text" autoComplete="one-time-code" />
          <SubmitButton>Verify</SubmitButton>
        </Form>
      ) : (
        <Form method="post" {...getFormProps(emailForm)} className="space-y-4">
          <Honeypot />
          {emailForm.errors ? <FormMessage>{emailForm.errors.join(' ')}</FormMessage> : null}
          <input type="hidden" name="next" value={next} />
          <Field label="Email" field={emailFields.email} type="email" autoComplete="email" />
          <SubmitButton name="intent" value="send">
            Send code
          </SubmitButton>
        </Form>
      )}
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Sign in with a code · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
