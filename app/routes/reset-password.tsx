import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import {
  AuthCard,
  Field,
  FormMessage,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { requireRecoverySession, spentRecoveryMarker } from '~/utils/password-reset.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { NewPasswordSchema } from '~/utils/schemas.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';
import { readForm } from '~/utils/form-body.server.ts';

// Reached from a recovery link only: /auth/confirm signs the person in and marks the session. Any
// other session changes its password on /account/security, with the current one.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { state } = await requireRecoverySession(request, context);
  return json({ expired: state === 'expired' });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { state } = await requireRecoverySession(request, context);
  const submission = parseWithZod(await readForm(request), { schema: NewPasswordSchema });
  if (state === 'expired') {
    return json(
      { result: submission.reply({ formErrors: [MESSAGES.link_invalid], hideFields: ['password'] }) },
      { status: 403 },
    );
  }
  if (submission.status !== 'success')
    return json({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  const { supabase } = getSupabase(request, context);
  // A security change: ask the auth server who this is, not just the cookie's claims.
  const { data: current, error: userError } = await supabase.auth.getUser();
  if (userError || !current.user) throw redirectWithSession('/login?next=/reset-password', request, context);
  if (submission.value.password.toLowerCase() === (current.user.email ?? '').toLowerCase()) {
    return json(
      {
        result: submission.reply({
          fieldErrors: { password: ['Use 8 to 72 characters, and not your email address.'] },
          hideFields: ['password'],
        }),
      },
      { status: 400 },
    );
  }
  const { error } = await supabase.auth.updateUser({ password: submission.value.password });
  if (error) {
    const friendly = friendlyAuthError(error, 'password');
    return json(
      {
        result: submission.reply(
          friendly.code === 'weak_password'
            ? { fieldErrors: { password: [friendly.message] }, hideFields: ['password'] }
            : { formErrors: [friendly.message], hideFields: ['password'] },
        ),
      },
      { status: friendly.code === 'backend_unavailable' ? 503 : 400 },
    );
  }
  return redirectWithFlash('/account', 'password_changed', request, context, {
    headers: { 'Set-Cookie': spentRecoveryMarker(request) },
  });
}

export default function ResetPassword() {
  const { expired } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('reset-password', NewPasswordSchema, actionData?.result);
  useClearPasswordOnReply(fields.password.id, actionData);
  if (expired) {
    return (
      <AuthCard title="Choose a new password">
        <div className="space-y-4">
          <FormMessage>{MESSAGES.link_invalid}</FormMessage>
          <p className="text-sm">
            <Link to="/forgot-password" className="font-medium text-indigo-600 hover:underline">
              Send a new link
            </Link>
          </p>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Field
          label="New password"
          field={fields.password}
          type="password"
          autoComplete="new-password"
          hint="8 to 72 characters."
        />
        <SubmitButton>Save password</SubmitButton>
      </Form>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Choose a new password · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
