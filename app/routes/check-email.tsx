import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { AuthCard, Field, FormMessage, Honeypot, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { friendlyAuthError, friendlyStatus } from '~/utils/auth-errors.server.ts';
import { limitSignInAttempt } from '~/utils/rate-limit.server.ts';
import { readPublicForm } from '~/utils/request.server.ts';
import { CodeSchema, ResendSchema } from '~/utils/schemas.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';

const RESEND_AFTER_SECONDS = 60;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const email = url.searchParams.get('email') ?? '';
  const sent = Number(url.searchParams.get('sent') ?? 0);
  return json({ email, sent: Number.isFinite(sent) ? sent : 0 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPublicForm(request);
  const submission = parseWithZod(formData, { schema: ResendSchema });
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 });
  const limited = await limitSignInAttempt(request, submission.value.email);
  if (limited) {
    return json(
      { result: submission.reply({ formErrors: [limited.message] }) },
      { status: friendlyStatus(limited) },
    );
  }
  const { supabase } = getSupabase(request, context);
  const { error } = await supabase.auth.resend({ type: 'signup', email: submission.value.email });
  if (error) {
    const friendly = friendlyAuthError(error);
    return json(
      { result: submission.reply({ formErrors: [friendly.message] }) },
      { status: friendly.code === 'rate_limited' ? 429 : 503 },
    );
  }
  return redirect(
    `/check-email?${new URLSearchParams({ email: submission.value.email, sent: String(Date.now()) })}`,
  );
}

/** Seconds until another email may be asked for; ticks once JavaScript runs. */
function secondsLeft(sent: number): number {
  return Math.max(0, Math.ceil((sent + RESEND_AFTER_SECONDS * 1000 - Date.now()) / 1000));
}

function useSecondsLeft(sent: number): number {
  const [seconds, setSeconds] = useState(() => secondsLeft(sent));
  useEffect(() => {
    setSeconds(secondsLeft(sent));
    const timer = setInterval(() => setSeconds(secondsLeft(sent)), 1000);
    return () => clearInterval(timer);
  }, [sent]);
  return seconds;
}

export default function CheckEmail() {
  const { email, sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('resend', ResendSchema, actionData?.result);
  // The address is not typed here, so its errors, if any, show with the form's.
  const errors = [...(form.errors ?? []), ...(fields.email.errors ?? [])];
  const seconds = useSecondsLeft(sent);
  const [codeForm, codeFields] = useSchemaForm('code-entry', CodeSchema, undefined);
  return (
    <AuthCard title="Check your email">
      <p className="text-slate-700">
        We sent a confirmation link and a 6-digit code to <strong>{email || 'your address'}</strong>. Follow
        the link to finish creating your account, or enter the code here.
      </p>
      {/* Checked by /login/code's action, which confirms a sign-up's code as it signs in with one
          (and lands on a pending invitation's workspace); its errors show on that page. */}
      <Form
        method="post"
        action={`/login/code?${new URLSearchParams({ email })}`}
        {...getFormProps(codeForm)}
        className="mt-6 space-y-4"
      >
        <Honeypot />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="next" value="" />
        <Field label="Code" field={codeFields.code} type="text" autoComplete="one-time-code" />
        <SubmitButton>Verify</SubmitButton>
      </Form>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-3">
        <Honeypot />
        <input type="hidden" name="email" value={email} />
        {errors.length > 0 ? <FormMessage>{errors.join(' ')}</FormMessage> : null}
        {seconds > 0 ? (
          <p className="text-sm text-slate-600" aria-live="polite">
            You can ask for another email in {seconds} seconds.
          </p>
        ) : null}
        <SubmitButton>Send the link again</SubmitButton>
      </Form>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Check your email · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
