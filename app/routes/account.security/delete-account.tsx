import { Form, Link, type useActionData } from '@remix-run/react';
import {
  Field,
  FormMessage,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { Panel } from '~/components/panel.tsx';
import { getFormProps } from '~/components/schema-form.ts';
import { DeleteAccountSchema } from '~/utils/account-schemas.ts';
import type { Blocker } from './reply.server.ts';
import type { action } from './route.tsx';

/**
 * Deleting the account, behind the current password. Refused, with links, while the account owns
 * shared workspaces that would be left without an owner.
 */
export function DeleteAccount({ reply }: { reply: ReturnType<typeof useActionData<typeof action>> }) {
  const [deleteForm, deleteFields] = useSchemaForm(
    'delete-account',
    DeleteAccountSchema,
    reply?.intent === 'delete-account' ? reply.result : undefined,
  );
  useClearPasswordOnReply(deleteFields.currentPassword.id, reply);
  const blockers = reply?.blockers ?? null;
  return (
    <Panel title="Delete account">
      <Form method="post" {...getFormProps(deleteForm)} className="space-y-4">
        <p className="text-sm text-slate-700">
          Your personal workspace, workspaces nobody else is in, your profile and your files are deleted, and
          you are signed out everywhere. This cannot be undone.
        </p>
        {deleteForm.errors ? <FormMessage>{deleteForm.errors.join(' ')}</FormMessage> : null}
        {blockers ? (
          <FormMessage>
            You own {blockers.length === 1 ? 'a shared workspace' : 'shared workspaces'} that would be left
            without an owner. First transfer ownership to another member, or delete the workspace, in its
            settings:{' '}
            {blockers.map((b: Blocker, i: number) => (
              <span key={b.slug}>
                {i > 0 ? ', ' : null}
                <Link to={`/w/${b.slug}/settings`} className="font-medium underline">
                  {b.name}
                </Link>
              </span>
            ))}
            .
          </FormMessage>
        ) : null}
        <Field
          label="Current password"
          field={deleteFields.currentPassword}
          type="password"
          autoComplete="current-password"
        />
        <SubmitButton name="intent" value="delete-account">
          Delete account
        </SubmitButton>
      </Form>
    </Panel>
  );
}
