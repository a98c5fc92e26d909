import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData } from '@remix-run/react';
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
import { redirectWithSession, requireUser } from '~/utils/auth.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { NewPasswordSchema } from '~/utils/schemas.ts';
import { getSupabase } from '~/utils/supabase.server.ts';

// Reached from a recovery link (/auth/confirm signs the person in first).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return json({});
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const submission = parseWithZod(await request.formData(), { schema: NewPasswordSchema });
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
  return redirectWithSession('/account?password=changed', request, context);
}

export default function ResetPassword() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('reset-password', NewPasswordSchema, actionData?.result);
  useClearPasswordOnReply(fields.password.id, actionData);
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
