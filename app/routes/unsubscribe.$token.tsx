import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { AuthCard, FormMessage, SubmitButton } from '~/components/forms.tsx';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';

// One-click unsubscribe from notification emails (RFC 8058), without signing in: the link in each
// email and its List-Unsubscribe header. GET asks to confirm (a mail client or a link scanner that
// follows it changes nothing); POST unsubscribes, from the form here or from the mail provider's own
// `List-Unsubscribe=One-Click` POST, which its servers send with no Origin and no cookies: so this
// action has no same-site check (requireSameSite refuses a POST without Origin), and the token, checked
// by the database (unsubscribe_notification_emails), is what authorizes it. A browser's cross-site
// POST, which names its Origin, is still refused by the request guard, as on every route.

type Status = 'valid' | 'unsubscribed' | 'already' | 'expired' | 'invalid';

const MESSAGES: Record<Exclude<Status, 'valid'>, string> = {
  unsubscribed: 'You are unsubscribed: Crewboard will not email you notifications any more.',
  already: 'Notification emails are already off for this account.',
  expired: 'This unsubscribe link has expired, and nothing was changed. Sign in to turn email off.',
  invalid:
    'This unsubscribe link is not valid: it was changed or belongs to someone else. Nothing was changed.',
};

async function unsubscribe(
  request: Request,
  context: LoaderFunctionArgs['context'],
  token: string,
  apply: boolean,
) {
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase.rpc('unsubscribe_notification_emails', { token, apply });
  if (error) throw dataErrorResponse(error);
  return data as Status;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const status = await unsubscribe(request, context, params.token ?? '', false);
  return json({ status }, { status: status === 'valid' || status === 'already' ? 200 : 404 });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  // The form's body, or RFC 8058's `List-Unsubscribe=One-Click`: either way it is only a POST.
  await readForm(request);
  const status = await unsubscribe(request, context, params.token ?? '', true);
  return json({ status }, { status: status === 'unsubscribed' || status === 'already' ? 200 : 404 });
}

// The token is in the address: no page it links to learns it.
export const headers: HeadersFunction = () => ({ 'Referrer-Policy': 'no-referrer' });

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const status = done?.status ?? loaded.status;
  return (
    <AuthCard title="Notification emails">
      {status === 'valid' ? (
        <Form method="post" className="space-y-4">
          <p className="text-slate-700">Stop getting notification emails from Crewboard?</p>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <SubmitButton>Unsubscribe</SubmitButton>
        </Form>
      ) : (
        <FormMessage tone={status === 'unsubscribed' || status === 'already' ? 'info' : 'error'}>
          {MESSAGES[status]}
        </FormMessage>
      )}
      <p className="mt-4 text-sm text-slate-600">
        Choose what you get by email in your{' '}
        <Link to="/account/notifications" className="font-medium text-indigo-700 underline">
          notification settings
        </Link>
        .
      </p>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [
  { title: 'Unsubscribe · Crewboard' },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
