import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { isAuthError } from '@supabase/supabase-js';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { AuthCard, FormMessage } from '~/components/forms.tsx';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { withDeviceCookie } from '~/utils/device-cookie.server.ts';
import { safeRedirect } from '~/utils/redirect.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';
import { SIGNED_IN_HOME } from '~/utils/home.ts';

// The sign-in link of a code email, after the auth server turned it into a PKCE `code`. The code is
// exchanged with the verifier this browser kept in a cookie when it asked for the email; another
// browser has no verifier, and is told to use the code instead. (GoTrue spends the link and its code
// together when the link is verified, so a fresh code may be needed: the page offers one.)
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const code = url.searchParams.get('code');
  const next = safeRedirect(url.searchParams.get('next'), SIGNED_IN_HOME);
  if (!code) {
    return json({ message: MESSAGES.link_invalid, code: 'link_invalid' }, { status: 400 });
  }
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase.auth.exchangeCodeForSession(code);
  if (!error) return withDeviceCookie(redirectWithSession(next, request, context), request, data.user);
  if (isAuthError(error) && error.name === 'AuthPKCECodeVerifierMissingError') {
    return json({ message: MESSAGES.pkce_missing, code: 'pkce_missing' }, { status: 400 });
  }
  const friendly = friendlyAuthError(error, 'link');
  return json({ message: friendly.message, code: friendly.code }, { status: 400 });
}

export default function AuthCallback() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <AuthCard title="Sign-in link">
      <div className="space-y-4">
        <FormMessage>{message}</FormMessage>
        <p className="text-sm">
          <Link to="/login/code" className="font-medium text-indigo-600 hover:underline">
            Get a new code
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}

export const meta: MetaFunction = () => [{ title: 'Sign in · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
