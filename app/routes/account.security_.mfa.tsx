import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import * as z from 'zod/mini';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { Panel } from '~/components/panel.tsx';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { listTotpFactors, verifyTotpCode, type TotpFactor } from '~/utils/mfa.server.ts';
import { qrCodeDataUrl, secretOf } from '~/utils/qr-code.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { MfaConfirmSchema, MfaEnrolSchema, MfaRemoveSchema } from '~/utils/account-schemas.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { unavailableResponse, badRequest } from '~/utils/data-errors.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

// Authenticator apps (TOTP): set one up (QR code or the secret typed in, then a first code to prove
// it works), see them, remove one. Removing a working one takes a fresh code: the session is at aal2
// already, but whoever sits at an unlocked computer should not be able to switch the second step off.

const IntentSchema = z.enum(['enrol', 'confirm', 'remove']);
const ISSUER = 'Crewboard';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { supabase } = await signedIn(request, context);
  const factors = await listTotpFactors(supabase);
  if (factors === 'unavailable') throw unavailableResponse();
  return json({ factors });
}

async function enrolment(factorId: string, uri: string) {
  return { factorId, uri, secret: secretOf(uri), qrCode: await qrCodeDataUrl(uri) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, supabase } = await signedIn(request, context);
  const formData = await readForm(request);
  const parsedIntent = IntentSchema.safeParse(formData.get('intent'));
  if (!parsedIntent.success) throw badRequest();
  const intent = parsedIntent.data;
  const factors = await listTotpFactors(supabase);
  if (factors === 'unavailable') throw unavailableResponse();

  if (intent === 'enrol') {
    const submission = parseWithZod(formData, { schema: MfaEnrolSchema });
    if (submission.status !== 'success')
      return json({ intent, result: submission.reply(), enrolment: null, factorId: null }, { status: 400 });
    // A setup that was never finished is abandoned: starting again discards it (and frees its name).
    for (const factor of factors.filter((f) => !f.verified))
      await supabase.auth.mfa.unenroll({ factorId: factor.id });
    const verified = factors.filter((f) => f.verified);
    const name = submission.value.name || defaultName(verified);
    if (verified.some((f) => f.friendlyName === name)) {
      return json(
        {
          intent,
          result: submission.reply({ fieldErrors: { name: ['You already have an app with that name.'] } }),
          enrolment: null,
          factorId: null,
        },
        { status: 400 },
      );
    }
    const { data, error } = await supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: name,
      issuer: ISSUER,
    });
    if (error) {
      const friendly = friendlyAuthError(error);
      return json(
        {
          intent,
          result: submission.reply({ formErrors: [friendly.message] }),
          enrolment: null,
          factorId: null,
        },
        { status: friendly.code === 'backend_unavailable' ? 503 : 400 },
      );
    }
    return json({
      intent,
      result: submission.reply({ resetForm: true }),
      enrolment: await enrolment(data.id, data.totp.uri),
      factorId: null,
    });
  }

  if (intent === 'confirm') {
    const submission = parseWithZod(formData, { schema: MfaConfirmSchema });
    if (submission.status !== 'success') {
      const { factorId, uri } = Object.fromEntries(formData);
      const pending =
        typeof factorId === 'string' && typeof uri === 'string' && uri.startsWith('otpauth://totp/')
          ? await enrolment(factorId, uri)
          : null;
      return json(
        { intent, result: submission.reply(), enrolment: pending, factorId: null },
        { status: 400 },
      );
    }
    const { factorId, uri, code } = submission.value;
    const outcome = await verifyTotpCode(request, supabase, user.id, [factorId], code);
    if (!outcome.ok) {
      return json(
        {
          intent,
          result: submission.reply({ fieldErrors: { code: [outcome.error.message] }, hideFields: ['code'] }),
          enrolment: await enrolment(factorId, uri),
          factorId: null,
        },
        { status: outcome.error.code === 'backend_unavailable' ? 503 : 400 },
      );
    }
    return redirectWithFlash('/account/security/mfa', 'mfa_enrolled', request, context);
  }

  // 'remove'
  const submission = parseWithZod(formData, { schema: MfaRemoveSchema });
  const factorId = typeof formData.get('factorId') === 'string' ? String(formData.get('factorId')) : null;
  if (submission.status !== 'success')
    return json({ intent, result: submission.reply(), enrolment: null, factorId }, { status: 400 });
  const target = factors.find((f) => f.id === submission.value.factorId);
  if (!target) return redirectWithSession('/account/security/mfa', request, context);
  if (target.verified) {
    const { code } = submission.value;
    if (!code) {
      return json(
        {
          intent,
          result: submission.reply({
            fieldErrors: { code: ['Enter the 6-digit code from your authenticator app.'] },
          }),
          enrolment: null,
          factorId,
        },
        { status: 400 },
      );
    }
    // The code may come from any of the user's apps (the one being removed may be lost).
    const others = factors.filter((f) => f.verified && f.id !== target.id).map((f) => f.id);
    const outcome = await verifyTotpCode(request, supabase, user.id, [target.id, ...others], code);
    if (!outcome.ok) {
      return json(
        {
          intent,
          result: submission.reply({ fieldErrors: { code: [outcome.error.message] }, hideFields: ['code'] }),
          enrolment: null,
          factorId,
        },
        { status: outcome.error.code === 'backend_unavailable' ? 503 : 400 },
      );
    }
  }
  const { error } = await supabase.auth.mfa.unenroll({ factorId: target.id });
  if (error) {
    const friendly = friendlyAuthError(error);
    return json(
      { intent, result: submission.reply({ formErrors: [friendly.message] }), enrolment: null, factorId },
      { status: friendly.code === 'backend_unavailable' ? 503 : 400 },
    );
  }
  const stillOn = factors.some((f) => f.verified && f.id !== target.id);
  return redirectWithFlash('/account/security/mfa', stillOn ? 'mfa_removed' : 'mfa_off', request, context);
}

function defaultName(existing: TotpFactor[]): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'Authenticator app' : `Authenticator app ${n}`;
    if (!existing.some((f) => f.friendlyName === name)) return name;
  }
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
      {factors.length > 0 ? (
        <Panel title="Your authenticator apps">
          <ul className="divide-y divide-slate-200">
            {factors.map((factor) => (
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

type LastResult = Parameters<typeof useSchemaForm>[2];

function FactorRow({ factor, lastResult }: { factor: TotpFactor; lastResult: LastResult }) {
  const [form, fields] = useSchemaForm(`remove-${factor.id}`, MfaRemoveSchema, lastResult);
  const name = factor.friendlyName || 'Authenticator app';
  return (
    <li className="py-4 first:pt-0 last:pb-0" aria-label={name}>
      <p className="font-medium">{name}</p>
      <p className="text-sm text-slate-600">
        {factor.verified ? 'Active' : 'Setup not finished'} · added{' '}
        {new Date(factor.createdAt).toLocaleDateString('en', { dateStyle: 'medium' })}
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="factorId" value={factor.id} />
        {factor.verified ? (
          <Field
            label="Code"
            field={fields.code}
            type="text"
            autoComplete="one-time-code"
            hint="To remove this app, enter a current code from it (or from another of your apps)."
          />
        ) : null}
        <SubmitButton name="intent" value="remove">
          Remove
        </SubmitButton>
      </Form>
    </li>
  );
}

function StartEnrolment({ lastResult }: { lastResult: LastResult }) {
  const [form, fields] = useSchemaForm('mfa-enrol', MfaEnrolSchema, lastResult);
  return (
    <Panel title="Add an authenticator app">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <p className="text-sm text-slate-600">
          Any TOTP app works: 1Password, Google Authenticator, Authy, Microsoft Authenticator and others.
        </p>
        <Field
          label="App name"
          field={fields.name}
          type="text"
          autoComplete="off"
          hint="Optional, to tell your apps apart, such as “Phone”."
        />
        <SubmitButton name="intent" value="enrol">
          Set up an authenticator app
        </SubmitButton>
      </Form>
    </Panel>
  );
}

function ConfirmEnrolment({
  enrolment,
  lastResult,
}: {
  enrolment: { factorId: string; uri: string; secret: string; qrCode: string };
  lastResult: LastResult;
}) {
  const [form, fields] = useSchemaForm('mfa-confirm', MfaConfirmSchema, lastResult);
  return (
    <Panel title="Add an authenticator app">
      <ol className="list-decimal space-y-4 pl-5 text-sm">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img
            src={enrolment.qrCode}
            alt="QR code to scan with your authenticator app"
            width={200}
            height={200}
            className="mt-2 rounded border border-slate-200"
          />
        </li>
        <li>
          <label htmlFor="totp-secret">Or type this secret key into the app</label>
          <input
            id="totp-secret"
            readOnly
            value={enrolment.secret}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm"
          />
        </li>
        <li>
          <p>Enter the 6-digit code the app now shows for {ISSUER}.</p>
          <Form method="post" {...getFormProps(form)} className="mt-2 space-y-4">
            {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
            <input type="hidden" name="factorId" value={enrolment.factorId} />
            <input type="hidden" name="uri" value={enrolment.uri} />
            <Field label="Code" field={fields.code} type="text" autoComplete="one-time-code" />
            <SubmitButton name="intent" value="confirm">
              Verify
            </SubmitButton>
          </Form>
        </li>
      </ol>
    </Panel>
  );
}

export const meta: MetaFunction = () => [{ title: 'Two-step verification · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
