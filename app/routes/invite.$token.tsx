import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { AuthCard, FormMessage, SubmitButton } from '~/components/forms.tsx';
import { getSignedInUser, redirectWithSession } from '~/utils/session/user.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';

const INVITE_INVALID = 'This invitation has expired, was revoked, or is for another email address.';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const token = params.token ?? '';
  const user = await getSignedInUser(request, context);
  if (user?.needsMfa) {
    const next = encodeURIComponent(`/invite/${token}`);
    throw redirectWithSession(`/login/mfa?next=${next}`, request, context);
  }
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase.rpc('invitation_preview', { token });
  if (error) throw dataErrorResponse(error);
  const invitation = data[0];
  if (!invitation || invitation.status === 'expired' || invitation.status === 'revoked') {
    return json({ state: 'invalid' as const, workspace: null, email: null, signedInAs: user?.email ?? null });
  }
  const here = `/invite/${token}`;
  if (!user) {
    return json({
      state: 'signed-out' as const,
      workspace: invitation.workspace_name,
      email: invitation.email,
      signedInAs: null,
      here,
      token,
    });
  }
  if (user.email.toLowerCase() !== invitation.email) {
    return json({
      state: 'wrong-account' as const,
      workspace: invitation.workspace_name,
      email: invitation.email,
      signedInAs: user.email,
    });
  }
  return json({
    state: 'ready' as const,
    workspace: invitation.workspace_name,
    email: invitation.email,
    signedInAs: user.email,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase.rpc('accept_invitation', { token: params.token ?? '' });
  if (error) return json({ error: INVITE_INVALID }, { status: 404 });
  return redirectWithSession(`/w/${data.slug}`, request, context);
}

export default function Invitation() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (data.state === 'invalid') {
    return (
      <AuthCard title="Invitation">
        <FormMessage>{INVITE_INVALID}</FormMessage>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${data.workspace}`}>
      {actionData?.error ? <FormMessage>{actionData.error}</FormMessage> : null}
      {data.state === 'signed-out' ? (
        <div className="space-y-4">
          <p className="text-slate-700">
            This invitation is for <strong>{data.email}</strong>. Sign in or create an account with that
            address to accept it.
          </p>
          <div className="flex gap-3">
            <Link
              to={`/login?next=${encodeURIComponent(data.here)}`}
              className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white"
            >
              Sign in
            </Link>
            <Link
              to={`/signup?${new URLSearchParams({ invitation: data.token })}`}
              className="rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold"
            >
              Create account
            </Link>
          </div>
        </div>
      ) : null}
      {data.state === 'wrong-account' ? (
        <FormMessage>
          This invitation is for {data.email}, but you are signed in as {data.signedInAs}. Sign out and sign
          in with the invited address.
        </FormMessage>
      ) : null}
      {data.state === 'ready' ? (
        <Form method="post" className="space-y-4">
          <p className="text-slate-700">You were invited to join {data.workspace}.</p>
          <SubmitButton>Accept invitation</SubmitButton>
        </Form>
      ) : null}
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Invitation · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
