import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useSearchParams } from '@remix-run/react';
import {
  AuthCard,
  Field,
  FormMessage,
  Honeypot,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import {
  friendlyAuthError,
  friendlyStatus,
  getSupabase,
  json,
  limitSignInAttempt,
  readPublicForm,
  redirectWithSession,
  requireAnonymous,
  withDeviceCookie,
} from '~/utils/sign-in-page.server.ts';
import { safeRedirect } from '~/utils/redirect.ts';
import { LoginSchema } from '~/utils/schemas.ts';
import { SIGNED_IN_HOME } from '~/utils/home.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPublicForm(request);
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== 'success') {
    return json(
      { result: submission.reply({ hideFields: ['password'] }), unconfirmedEmail: null },
      { status: 400 },
    );
  }
  const { supabase } = getSupabase(request, context);
  const { email, password, next } = submission.value;
  const limited = await limitSignInAttempt(request, email);
  const { data, error } = limited
    ? { data: null, error: null }
    : await supabase.auth.signInWithPassword({ email, password });
  const friendly = limited ?? (error ? friendlyAuthError(error) : null);
  if (friendly) {
    return json(
      {
        result: submission.reply({ formErrors: [friendly.message], hideFields: ['password'] }),
        unconfirmedEmail: friendly.code === 'email_not_confirmed' ? email : null,
      },
      { status: friendlyStatus(friendly) },
    );
  }
  const response = redirectWithSession(safeRedirect(next, SIGNED_IN_HOME), request, context);
  return data?.user ? withDeviceCookie(response, request, data.user) : response;
}

export default function Login() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const [form, fields] = useSchemaForm('login', LoginSchema, actionData?.result);
  useClearPasswordOnReply(fields.password.id, actionData);
  const next = searchParams.get('next') ?? '';
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          New here?{' '}
          <Link to="/signup" className="font-medium text-indigo-600 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <Honeypot />
        <input type="hidden" name="next" value={next} />
        {form.errors ? (
          <FormMessage>
            {form.errors.join(' ')}
            {actionData?.unconfirmedEmail ? (
              <>
                {' '}
                <Link
                  className="font-medium underline"
                  to={`/check-email?email=${encodeURIComponent(actionData.unconfirmedEmail)}`}
                >
                  Send the link again
                </Link>
              </>
            ) : null}
          </FormMessage>
        ) : null}
        <Field label="Email" field={fields.email} type="email" autoComplete="email" />
        <Field label="Password" field={fields.password} type="password" autoComplete="current-password" />
        <SubmitButton>Sign in</SubmitButton>
      </Form>
      <div className="mt-4 flex justify-between text-sm">
        <Link to="/login/code" className="text-indigo-600 hover:underline">
          Email me a code
        </Link>
        <Link to="/forgot-password" className="text-indigo-600 hover:underline">
          Forgot password?
        </Link>
      </div>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Sign in · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
