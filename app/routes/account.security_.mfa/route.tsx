import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Panel } from '~/components/panel.tsx';
import { unavailableResponse } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { listTotpFactors } from '~/utils/mfa.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { ConfirmEnrolment, StartEnrolment } from './enrolment.tsx';
import { FactorRow } from './factor-row.tsx';
import { confirm, enrol, remove } from './factors.server.ts';
import { MfaIntent } from './intents.server.ts';

// Authenticator apps (TOTP): set one up, see them, remove one (factors.server.ts).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { supabase } = await signedIn(request, context);
  const factors = await listTotpFactors(supabase);
  if (factors === 'unavailable') throw unavailableResponse();
  return json({ factors });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, supabase } = await signedIn(request, context);
  const formData = await readForm(request);
  const { intent } = readIntent(formData, MfaIntent);
  const factors = await listTotpFactors(supabase);
  if (factors === 'unavailable') throw unavailableResponse();
  const mfa = { request, context, supabase, userId: user.id, factors };
  if (intent === 'enrol') return enrol(mfa, formData);
  if (intent === 'confirm') return confirm(mfa, formData);
  return remove(mfa, formData);
}

export default function TwoStepVerification() {
  const { factors } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const enrolment = actionData?.enrolment ?? null;
  const verified = factors.filter((f) => f.verified);
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/account/security" className="text-indigo-600 hover:underline">
            ← Security
          </Link>
        </p>
        <h1 className="mt-2 text-xl font-semibold">Two-step verification</h1>
        <p className="mt-1 text-slate-600">
          {verified.length > 0
            ? 'On: signing in asks for a code from your authenticator app after your password or email code.'
            : 'Off: add an authenticator app, and signing in will also ask for a code from it.'}
        </p>
      </div>
      {/* A set-up left half-way is no working app: not listed, and discarded by the next set-up. */}
      {verified.length > 0 ? (
        <Panel title="Your authenticator apps">
          <ul className="divide-y divide-slate-200">
            {verified.map((factor) => (
              <FactorRow
                key={factor.id}
                factor={factor}
                lastResult={
                  actionData?.intent === 'remove' && actionData.factorId === factor.id
                    ? actionData.result
                    : undefined
                }
              />
            ))}
          </ul>
        </Panel>
      ) : null}
      {enrolment ? (
        <ConfirmEnrolment
          enrolment={enrolment}
          lastResult={actionData?.intent === 'confirm' ? actionData.result : undefined}
        />
      ) : (
        <StartEnrolment lastResult={actionData?.intent === 'enrol' ? actionData.result : undefined} />
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Two-step verification · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
