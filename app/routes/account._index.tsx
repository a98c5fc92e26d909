import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { MESSAGES } from '~/utils/messages.ts';
import { redirectWithSession, requireUser } from '~/utils/auth.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { DisplayNameSchema } from '~/utils/schemas.ts';
import { getSupabase } from '~/utils/supabase.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase
    .from('profiles')
    .select('display_name')
    .eq('id', user.id)
    .maybeSingle();
  if (error) throw new Response('Backend unavailable', { status: 503 });
  const url = new URL(request.url);
  return json({
    email: user.email,
    displayName: data?.display_name ?? '',
    notice: url.searchParams.get('saved')
      ? 'Saved.'
      : url.searchParams.get('password') === 'changed'
        ? 'Your password has been changed.'
        : null,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const user = await requireUser(request, context);
  const submission = parseWithZod(await request.formData(), { schema: DisplayNameSchema });
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 });
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase
    .from('profiles')
    .update({ display_name: submission.value.displayName })
    .eq('id', user.id)
    .select('id');
  if (error || data.length !== 1) {
    return json(
      { result: submission.reply({ formErrors: [MESSAGES.backend_unavailable] }) },
      { status: 503 },
    );
  }
  return redirectWithSession('/account?saved=1', request, context);
}

export default function Profile() {
  const { email, displayName, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('profile', DisplayNameSchema, actionData?.result, { displayName });
  return (
    <section aria-labelledby="profile-title" className="space-y-6">
      <div>
        <h1 id="profile-title" className="text-xl font-semibold">
          Your account
        </h1>
        <p className="mt-1 text-slate-600">Signed in as {email}.</p>
      </div>
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
      <Form
        method="post"
        {...getFormProps(form)}
        className="max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Field
          label="Display name"
          field={fields.displayName}
          type="text"
          autoComplete="nickname"
          hint="How teammates see you. 1 to 50 characters."
        />
        <SubmitButton>Save</SubmitButton>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: 'Your account · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
