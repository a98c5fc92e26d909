import { Form } from '@remix-run/react';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps } from '~/components/schema-form.ts';
import { MfaRemoveSchema } from '~/utils/account-schemas.ts';
import type { TotpFactor } from '~/utils/mfa.server.ts';

type LastResult = Parameters<typeof useSchemaForm>[2];

/** One of the user's authenticator apps, with the form that removes it. */
export function FactorRow({ factor, lastResult }: { factor: TotpFactor; lastResult: LastResult }) {
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
