import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { ErrorList, FormMessage, SubmitButton } from '~/components/forms.tsx';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { EMAIL_FREQUENCIES, NOTIFICATION_KINDS } from '~/utils/notification-preferences.ts';
import { NotificationPreferencesSchema } from '~/utils/notification-preferences.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

// How each person wants to be told (public.notification_preferences, their own row under RLS): per
// kind of event, in the inbox and/or by email, and how often email may come. No row: everything, as
// it happens. A plain form: checkboxes and radio buttons, so it works the same without JavaScript.

const LABELS: Record<(typeof NOTIFICATION_KINDS)[number], string> = {
  assigned: 'Someone assigns you a task',
  mentioned: 'Someone mentions you',
  commented: 'Someone comments on a task you watch',
  status_changed: 'Someone moves a task you watch',
  added_to_workspace: 'Someone adds you to a workspace',
};

const FREQUENCY_LABELS: Record<(typeof EMAIL_FREQUENCIES)[number], string> = {
  instant: 'As it happens (at most one email every few minutes)',
  hourly: 'At most once an hour',
  daily: 'At most once a day',
  never: 'Never',
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, supabase } = await signedIn(request, context);
  const { data, error } = await supabase
    .from('notification_preferences')
    .select('inbox_kinds, email_kinds, email_frequency')
    .eq('user_id', user.id)
    .maybeSingle();
  if (error)
    throw new Response(classifyDataError(error).message, { status: classifyDataError(error).status });
  return json({
    inbox: data?.inbox_kinds ?? [...NOTIFICATION_KINDS],
    email: data?.email_kinds ?? [...NOTIFICATION_KINDS],
    frequency: data?.email_frequency ?? 'instant',
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, supabase } = await signedIn(request, context);
  const submission = parseWithZod(await readForm(request), { schema: NotificationPreferencesSchema });
  if (submission.status !== 'success') {
    const errors = submission.reply().error ?? {};
    // `inbox[2]` is the inbox's error: each one beside its column.
    const at = (name: string) =>
      Object.entries(errors)
        .filter(([key]) => key === name || key.startsWith(`${name}[`))
        .flatMap(([, messages]) => messages ?? []);
    return json(
      { errors: { inbox: at('inbox'), email: at('email'), frequency: at('frequency'), form: at('') } },
      { status: 400 },
    );
  }
  const { inbox, email, frequency } = submission.value;
  // Nothing ticked: the field is not sent at all.
  const { error } = await supabase.from('notification_preferences').upsert({
    user_id: user.id,
    inbox_kinds: [...new Set(inbox ?? [])],
    email_kinds: [...new Set(email ?? [])],
    email_frequency: frequency,
    updated_at: new Date().toISOString(),
  });
  if (error) {
    const failure = classifyDataError(error);
    return json(
      { errors: { inbox: [], email: [], frequency: [], form: [failure.message] } },
      { status: failure.status },
    );
  }
  return redirectWithFlash('/account/notifications', 'profile_saved', request, context);
}

export default function NotificationSettings() {
  const saved = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.errors;
  return (
    <section aria-labelledby="notifications-title" className="space-y-6">
      <div>
        <h1 id="notifications-title" className="text-xl font-semibold">
          Notifications
        </h1>
        <p className="mt-1 text-slate-600">What you are told about, and where.</p>
      </div>
      <Form method="post" className="space-y-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        {errors?.form.length ? <FormMessage>{errors.form.join(' ')}</FormMessage> : null}
        <table className="w-full text-sm">
          <caption className="sr-only">Where each kind of notification goes</caption>
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="py-2 font-medium">
                When
              </th>
              <th scope="col" className="w-20 py-2 text-center font-medium">
                Inbox
              </th>
              <th scope="col" className="w-20 py-2 text-center font-medium">
                Email
              </th>
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_KINDS.map((kind) => (
              <tr key={kind} className="border-t border-slate-100">
                <th scope="row" className="py-2 text-left font-normal">
                  {LABELS[kind]}
                </th>
                <td className="py-2 text-center">
                  <input
                    type="checkbox"
                    name="inbox"
                    value={kind}
                    defaultChecked={saved.inbox.includes(kind)}
                    aria-label={`${LABELS[kind]}: in the inbox`}
                    aria-describedby={errors?.inbox.length ? 'inbox-error' : undefined}
                  />
                </td>
                <td className="py-2 text-center">
                  <input
                    type="checkbox"
                    name="email"
                    value={kind}
                    defaultChecked={saved.email.includes(kind)}
                    aria-label={`${LABELS[kind]}: by email`}
                    aria-describedby={errors?.email.length ? 'email-error' : undefined}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ErrorList id="inbox-error" errors={errors?.inbox} />
        <ErrorList id="email-error" errors={errors?.email} />
        <fieldset aria-describedby={errors?.frequency.length ? 'frequency-error' : undefined}>
          <legend className="text-sm font-medium">How often email may come</legend>
          <div className="mt-2 space-y-1">
            {EMAIL_FREQUENCIES.map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="frequency"
                  value={value}
                  defaultChecked={saved.frequency === value}
                />
                {FREQUENCY_LABELS[value]}
              </label>
            ))}
          </div>
          <ErrorList id="frequency-error" errors={errors?.frequency} />
        </fieldset>
        <SubmitButton>Save</SubmitButton>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: 'Notifications · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
