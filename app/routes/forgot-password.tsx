import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { AuthCard, Field, FormMessage, Honeypot, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { friendlyAuthError, friendlyStatus } from '~/utils/auth-errors.server.ts';
import { limitSignInAttempt } from '~/utils/rate-limit.server.ts';
import { readPublicForm } from '~/utils/request.server.ts';
import { ForgotPasswordSchema } from '~/utils/schemas.ts';
import { siteUrl } from '~/utils/site.server.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ sentTo: new URL(request.url).searchParams.get('sent') });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPublicForm(request);
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema });
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 });
  const limited = await limitSignInAttempt(request, submission.value.email);
  if (limited) {
    return json(
      { result: submission.reply({ formErrors: [limited.message] }) },
      { status: friendlyStatus(limited) },
    );
  }
  const { supabase } = getSupabase(request, context);
  const { error } = await supabase.auth.resetPasswordForEmail(submission.value.email, {
    redirectTo: `${siteUrl(request)}/auth/confirm`,
  });
  const friendly = error ? friendlyAuthError(error) : null;
  // Unknown addresses and "asked too recently" read like success: nobody learns who has an account.
  if (friendly?.code === 'backend_unavailable') {
    return json({ result: submission.reply({ formErrors: [friendly.message] }) }, { status: 503 });
  }
  return redirect(`/forgot-password?sent=${encodeURIComponent(submission.value.email)}`);
}

export default function ForgotPassword() {
  const { sentTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('forgot-password', ForgotPasswordSchema, actionData?.result);
  return (
    <AuthCard
      title="Reset your password"
      footer={
        <Link to="/login" className="text-indigo-600 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {sentTo ? (
        <FormMessage tone="info">
          If <strong>{sentTo}</strong> has an account, we sent it a link to choose a new password.
        </FormMessage>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <Honeypot />
          {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
          <Field label="Email" field={fields.email} type="email" autoComplete="email" />
          <SubmitButton>Send reset link</SubmitButton>
        </Form>
      )}
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Reset your password · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
