import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import {
  AuthCard,
  Field,
  FormMessage,
  Honeypot,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { friendlyAuthError, friendlyStatus } from '~/utils/auth-errors.server.ts';
import { limitSignInAttempt } from '~/utils/rate-limit.server.ts';
import { requireAnonymous } from '~/utils/session/user.server.ts';
import { readPublicForm } from '~/utils/request.server.ts';
import { SignupSchema } from '~/utils/schemas.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return json({});
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPublicForm(request);
  const submission = parseWithZod(formData, { schema: SignupSchema });
  if (submission.status !== 'success') {
    return json({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  }
  const { email, password } = submission.value;
  const limited = await limitSignInAttempt(request, email);
  if (limited) {
    return json(
      { result: submission.reply({ formErrors: [limited.message], hideFields: ['password'] }) },
      { status: friendlyStatus(limited) },
    );
  }
  const { supabase } = getSupabase(request, context);
  const { error } = await supabase.auth.signUp({ email, password });
  const friendly = error ? friendlyAuthError(error) : null;
  // A taken address gets the same answer as a new one (the backend sends nothing for it), and so does
  // the resend limit of an unconfirmed one: the page must not tell whether an account exists.
  if (friendly && friendly.code !== 'rate_limited') {
    return json(
      { result: submission.reply({ formErrors: [friendly.message], hideFields: ['password'] }) },
      { status: friendly.code === 'backend_unavailable' ? 503 : 400 },
    );
  }
  return redirect(`/check-email?${new URLSearchParams({ email, sent: String(Date.now()) })}`);
}

export default function Signup() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('signup', SignupSchema, actionData?.result);
  useClearPasswordOnReply(fields.password.id, actionData);
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have one?{' '}
          <Link to="/login" className="font-medium text-indigo-600 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <Honeypot />
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Field label="Email" field={fields.email} type="email" autoComplete="email" />
        <Field
          label="Password"
          field={fields.password}
          type="password"
          autoComplete="new-password"
          hint="8 to 72 characters."
        />
        <SubmitButton>Create account</SubmitButton>
      </Form>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Create account · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
