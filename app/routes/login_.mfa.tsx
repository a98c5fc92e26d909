import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import {
  AuthCard,
  Field,
  FormMessage,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { getSignedInUser, redirectWithSession } from '~/utils/session/user.server.ts';
import { withDeviceCookie } from '~/utils/device-cookie.server.ts';
import { SIGNED_IN_HOME } from '~/utils/home.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { listTotpFactors, verifyTotpCode } from '~/utils/mfa.server.ts';
import { safeRedirect } from '~/utils/redirect.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { MfaChallengeSchema } from '~/utils/account-schemas.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';
import { readForm } from '~/utils/form-body.server.ts';

// The second step of every sign-in (password, email code, email link) for an account with an
// authenticator app: signedIn() sends such sessions here until they reach aal2.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getSignedInUser(request, context);
  const url = new URL(request.url);
  const next = safeRedirect(url.searchParams.get('next'), SIGNED_IN_HOME);
  if (!user) throw redirectWithSession(`/login?next=${encodeURIComponent(next)}`, request, context);
  if (!user.needsMfa) throw redirectWithSession(next, request, context);
  return json({ email: user.email, next });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const formData = await readForm(request);
  const next = safeRedirect(formData.get('next'), SIGNED_IN_HOME);
  const user = await getSignedInUser(request, context);
  if (!user) throw redirectWithSession(`/login?next=${encodeURIComponent(next)}`, request, context);
  if (!user.needsMfa) throw redirectWithSession(next, request, context);
  const submission = parseWithZod(formData, { schema: MfaChallengeSchema });
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 });
  const { supabase } = getSupabase(request, context);
  const factors = await listTotpFactors(supabase);
  if (factors === 'unavailable') {
    return json(
      { result: submission.reply({ formErrors: [MESSAGES.backend_unavailable] }) },
      { status: 503 },
    );
  }
  const verified = factors.filter((f) => f.verified).map((f) => f.id);
  const outcome = await verifyTotpCode(request, supabase, user.id, verified, submission.value.code);
  if (!outcome.ok) {
    const status =
      outcome.error.code === 'backend_unavailable' ? 503 : outcome.error.code === 'rate_limited' ? 429 : 400;
    return json(
      { result: submission.reply({ fieldErrors: { code: [outcome.error.message] }, hideFields: ['code'] }) },
      { status },
    );
  }
  // The sign-in is complete now: this browser gets its own allowance for the account.
  return withDeviceCookie(redirectWithSession(next, request, context), request, {
    id: user.id,
    email: user.email,
  });
}

export default function SecondFactor() {
  const { email, next } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('mfa-challenge', MfaChallengeSchema, actionData?.result);
  // A used or wrong code is no use to retype.
  useClearPasswordOnReply(fields.code.id, actionData);
  return (
    <AuthCard
      title="Two-step verification"
      footer={
        <Form method="post" action="/logout">
          <button type="submit" className="font-medium text-indigo-600 hover:underline">
            Sign out
          </button>
        </Form>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormMessage tone="info">{MESSAGES.mfa_required}</FormMessage>
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <p className="text-sm text-slate-600">Signing in as {email}.</p>
        <input type="hidden" name="next" value={next} />
        <Field
          label="Code"
          field={fields.code}
          type="text"
          autoComplete="one-time-code"
          hint="The 6-digit code your authenticator app shows for Crewboard."
        />
        <SubmitButton>Verify</SubmitButton>
      </Form>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Two-step verification · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
