import { Form } from '@remix-run/react';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { Panel } from '~/components/panel.tsx';
import { getFormProps } from '~/components/schema-form.ts';
import { MfaConfirmSchema, MfaEnrolSchema } from '~/utils/account-schemas.ts';

/** The name authenticator apps show beside this site's codes. */
export const ISSUER = 'Crewboard';

type LastResult = Parameters<typeof useSchemaForm>[2];

/** Setting up an app, step one: its name. */
export function StartEnrolment({ lastResult }: { lastResult: LastResult }) {
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

/** Step two: the QR code or the secret to type in, and a first code from the app to prove it works. */
export function ConfirmEnrolment({
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
