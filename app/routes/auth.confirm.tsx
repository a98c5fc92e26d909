import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { AuthCard, FormMessage, SubmitButton } from '~/components/forms.tsx';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { withDeviceCookie } from '~/utils/device-cookie.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { safeRedirect } from '~/utils/redirect.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { ConfirmSchema } from '~/utils/email-link.server.ts';
import { recoveryMarker } from '~/utils/password-reset.server.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';
import { SIGNED_IN_HOME } from '~/utils/home.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { landingAfterConfirmation } from '~/utils/signup-invitation.server.ts';

// Every email link lands here. GET only shows a button: mail scanners that open links must not use
// them up. POST verifies the token and starts the session.

export async function loader({ request }: LoaderFunctionArgs) {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = ConfirmSchema.safeParse(params);
  return json(
    parsed.success ? { link: parsed.data, error: null } : { link: null, error: MESSAGES.link_invalid },
  );
}

function destination(type: string, next: string | undefined): string {
  if (type === 'recovery') return '/reset-password';
  if (type === 'email_change') return '/account/security';
  return safeRedirect(next, SIGNED_IN_HOME);
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const parsed = ConfirmSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return json({ error: MESSAGES.link_invalid, pending: false }, { status: 400 });
  const { token_hash, type, next } = parsed.data;
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase.auth.verifyOtp({ token_hash, type });
  if (error) {
    const friendly = friendlyAuthError(error, 'link');
    return json(
      { error: friendly.message, pending: false },
      { status: friendly.code === 'backend_unavailable' ? 503 : 400 },
    );
  }
  if (!data.session) {
    // The first of the two links of an email change: the other address must confirm too.
    return json({ error: null, pending: true });
  }
  if (type === 'recovery') {
    // Only this session may choose a password without the current one (/reset-password): mark it.
    const { data: verified } = await supabase.auth.getClaims();
    const sessionId = verified?.claims.session_id;
    if (typeof sessionId === 'string') {
      return redirectWithSession(destination(type, next), request, context, {
        headers: { 'Set-Cookie': recoveryMarker(sessionId, request) },
      });
    }
  }
  if (type === 'email_change')
    return redirectWithFlash(destination(type, next), 'email_changed', request, context);
  const landing = await landingAfterConfirmation(supabase, data.user, destination(type, next));
  const response = redirectWithSession(landing, request, context);
  return data.user ? withDeviceCookie(response, request, data.user) : response;
}

const TITLES: Record<string, string> = {
  signup: 'Confirm your email',
  invite: 'Accept your invitation',
  magiclink: 'Sign in',
  email: 'Sign in',
  recovery: 'Reset your password',
  email_change: 'Confirm your new email',
};

export default function Confirm() {
  const { link, error: linkError } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const error = actionData?.error ?? linkError;
  if (actionData?.pending) {
    return (
      <AuthCard title="One more step">
        <FormMessage tone="info">
          This address is confirmed. Now follow the link we sent to your other address to finish the change.
        </FormMessage>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={link ? (TITLES[link.type] ?? 'Continue') : 'Link not valid'}>
      {error ? (
        <div className="space-y-4">
          <FormMessage>{error}</FormMessage>
          <p className="text-sm">
            <Link to="/login" className="font-medium text-indigo-600 hover:underline">
              Back to sign in
            </Link>
          </p>
        </div>
      ) : null}
      {link && !error ? (
        <Form method="post" className="space-y-4">
          <input type="hidden" name="token_hash" value={link.token_hash} />
          <input type="hidden" name="type" value={link.type} />
          {link.next ? <input type="hidden" name="next" value={link.next} /> : null}
          <p className="text-slate-700">
            Press continue to finish. This keeps email scanners from using your link before you do.
          </p>
          <SubmitButton>Continue</SubmitButton>
        </Form>
      ) : null}
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Continue · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
