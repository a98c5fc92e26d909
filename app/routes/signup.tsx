import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
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
import { openInvitation } from '~/utils/signup-invitation.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  // From "Create account" on an invitation: the invited address is filled in, and the invitation
  // goes along with the sign-up (~/utils/signup-invitation.server.ts).
  const { supabase } = getSupabase(request, context);
  const invitation = await openInvitation(supabase, new URL(request.url).searchParams.get('invitation'));
  return json({ invitation });
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
  // Only for the invited address: the invitation could not be accepted with another.
  const invitation = await openInvitation(supabase, formData.get('invitation'));
  const carried = invitation?.email === email ? { invitation: invitation.token } : undefined;
  const { error } = await supabase.auth.signUp({ email, password, options: { data: carried } });
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
  const { invitation } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(
    'signup',
    SignupSchema,
    actionData?.result,
    invitation ? { email: invitation.email } : undefined,
  );
  const signIn = invitation
    ? `/login?${new URLSearchParams({ next: `/invite/${invitation.token}` })}`
    : '/login';
  useClearPasswordOnReply(fields.password.id, actionData);
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have one?{' '}
          <Link to={signIn} className="font-medium text-indigo-600 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <Honeypot />
        {invitation ? (
          <>
            <input type="hidden" name="invitation" value={invitation.token} />
            <FormMessage tone="info">
              Create your account to join <strong>{invitation.workspace}</strong>. Once you confirm your
              email, you are in.
            </FormMessage>
          </>
        ) : null}
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
