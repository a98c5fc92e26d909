import { Form } from '@remix-run/react';
import { ErrorList, Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, getSelectProps } from '~/components/schema-form.ts';
import type { WorkspaceRole } from '~/utils/roles.ts';
import { InviteSchema } from '~/utils/workspace-schemas.ts';
import { ROLE_LABEL, rolesGivenBy } from './member-list.tsx';

/** An admin's part of the page: the invite form, and the invitations still open. */
export function Invite({
  myRole,
  invitations,
  lastResult,
}: {
  myRole: WorkspaceRole;
  invitations: Array<{ id: string; email: string; role: WorkspaceRole; expires_at: string }>;
  lastResult: Parameters<typeof useSchemaForm>[2];
}) {
  const [form, fields] = useSchemaForm('invite', InviteSchema, lastResult, { email: '', role: 'member' });
  return (
    <section aria-labelledby="invite-title" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="invite-title" className="text-base font-semibold">
        Invite someone
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Field label="Email" field={fields.email} type="email" />
        <div>
          <label htmlFor={fields.role.id} className="block text-sm font-medium">
            Role
          </label>
          <select
            {...getSelectProps(fields.role)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
          >
            {rolesGivenBy(myRole).map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
          <ErrorList id={fields.role.errorId} errors={fields.role.errors} />
        </div>
        <SubmitButton name="intent" value="invite">
          Invite
        </SubmitButton>
      </Form>
      {invitations.length > 0 ? (
        <ul className="mt-6 space-y-2 text-sm">
          {invitations.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {i.email} · {ROLE_LABEL[i.role]} · expires {i.expires_at.slice(0, 10)}
              </span>
              <span className="flex gap-3">
                <Form method="post">
                  <input type="hidden" name="id" value={i.id} />
                  <button type="submit" name="intent" value="resend" className="hover:underline">
                    Resend
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="id" value={i.id} />
                  <button type="submit" name="intent" value="revoke" className="text-red-700 hover:underline">
                    Revoke
                  </button>
                </Form>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** What became of an invitation just made or resent, with its link when the email did not go. */
export function InvitationSent({ link, email, to }: { link: string; email: string; to: string }) {
  if (email === 'sent')
    return (
      <FormMessage tone="info">
        Invitation emailed to {to}. The link works for 7 days, for that address only.
      </FormMessage>
    );
  return (
    <FormMessage tone="info">
      {email === 'failed'
        ? `The invitation is ready, but the email to ${to} could not be sent. Send them this link yourself, or try Resend later`
        : `Invitation ready. Email is not set up on this server, so send ${to} this link yourself`}{' '}
      (it works for 7 days, for that address only):{' '}
      <a href={link} className="break-all font-medium underline">
        {link}
      </a>
    </FormMessage>
  );
}
