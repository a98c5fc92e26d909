import { getFormProps, getSelectProps, type SubmissionResult } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { ErrorList, Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { emptyStorageTrash } from '~/utils/admin.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import {
  DeleteWorkspaceSchema,
  RenameWorkspaceSchema,
  TransferOwnershipSchema,
  WorkspaceSlugSchema,
} from '~/utils/workspace-schemas.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { classifyDataError, dataErrorKind } from '~/utils/data-errors.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { SettingsIntent } from './intents.server.ts';
import { Panel } from '~/components/panel.tsx';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'admin',
  });
  const { workspace, role } = member;
  const { data, error } = await supabase
    .from('workspace_members')
    .select('user_id, profile:profiles!workspace_members_profile_fkey(display_name)')
    .eq('workspace_id', workspace.id)
    .neq('user_id', user.id);
  if (error) throw dataErrorResponse(error);
  return json({
    workspace,
    isOwner: role === 'owner',
    others: data.map((m) => ({ id: m.user_id, name: m.profile?.display_name ?? 'Someone' })),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'admin',
  });
  const { workspace, role } = member;
  const formData = await readForm(request);
  const { intent } = readIntent(formData, SettingsIntent);
  // A failure that is not about a field: shown above the form, with its status.
  const failed = (
    error: unknown,
    submission: { reply: (o: { formErrors: string[] }) => SubmissionResult<string[]> },
  ) => {
    const failure = classifyDataError(error);
    return json(
      { intent, result: submission.reply({ formErrors: [failure.message] }) },
      { status: failure.status },
    );
  };

  if (intent === 'rename') {
    const submission = parseWithZod(formData, { schema: RenameWorkspaceSchema });
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
    const { error } = await supabase
      .from('workspaces')
      .update({ name: submission.value.name })
      .eq('id', workspace.id);
    if (error) return failed(error, submission);
    return redirectWithSession(`/w/${workspace.slug}/settings`, request, context);
  }
  if (intent === 'slug') {
    const submission = parseWithZod(formData, { schema: WorkspaceSlugSchema });
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
    const { error } = await supabase
      .from('workspaces')
      .update({ slug: submission.value.slug })
      .eq('id', workspace.id);
    const kind = error ? dataErrorKind(error) : null;
    if (kind === 'conflict' || kind === 'invalid') {
      const message =
        kind === 'conflict'
          ? 'That address is taken. Try another.'
          : 'That address is reserved. Try another.';
      return json(
        { intent, result: submission.reply({ fieldErrors: { slug: [message] } }) },
        { status: 409 },
      );
    }
    if (error) return failed(error, submission);
    return redirectWithSession(`/w/${submission.value.slug}/settings`, request, context);
  }
  if (role !== 'owner') throw notFound();
  if (intent === 'transfer') {
    const submission = parseWithZod(formData, { schema: TransferOwnershipSchema });
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
    const { error } = await supabase.rpc('transfer_ownership', {
      ws: workspace.id,
      new_owner: submission.value.newOwner,
    });
    if (error) {
      const failure = classifyDataError(error);
      const message =
        failure.kind === 'invalid' ? 'Choose another member of this workspace.' : failure.message;
      return json(
        { intent, result: submission.reply({ fieldErrors: { newOwner: [message] } }) },
        { status: failure.status },
      );
    }
    return redirectWithSession(`/w/${workspace.slug}`, request, context);
  }
  // What is left is 'delete'.
  const submission = parseWithZod(formData, { schema: DeleteWorkspaceSchema });
  if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
  if (submission.value.confirm !== workspace.name) {
    return json(
      {
        intent,
        result: submission.reply({
          fieldErrors: { confirm: [`Type “${workspace.name}” exactly to confirm.`] },
        }),
      },
      { status: 400 },
    );
  }
  const { data, error } = await supabase.from('workspaces').delete().eq('id', workspace.id).select('id');
  if (error) return failed(error, submission);
  if (data.length !== 1) {
    return json(
      { intent, result: submission.reply({ formErrors: ['A personal workspace cannot be deleted.'] }) },
      { status: 400 },
    );
  }
  // Its attachments' rows went with it; their files go now.
  await emptyStorageTrash();
  return redirectWithSession('/w', request, context);
}

export default function Settings() {
  const { workspace, isOwner, others } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const reply = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const [renameForm, renameFields] = useSchemaForm('rename', RenameWorkspaceSchema, reply('rename'), {
    name: workspace.name,
  });
  const [slugForm, slugFields] = useSchemaForm('slug', WorkspaceSlugSchema, reply('slug'), {
    slug: workspace.slug,
  });
  const [transferForm, transferFields] = useSchemaForm(
    'transfer',
    TransferOwnershipSchema,
    reply('transfer'),
  );
  const [deleteForm, deleteFields] = useSchemaForm('delete', DeleteWorkspaceSchema, reply('delete'));
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <Panel title="Name">
        <Form method="post" {...getFormProps(renameForm)} className="space-y-4">
          {renameForm.errors ? <FormMessage>{renameForm.errors.join(' ')}</FormMessage> : null}
          <Field label="Workspace name" field={renameFields.name} type="text" />
          <SubmitButton name="intent" value="rename">
            Rename
          </SubmitButton>
        </Form>
      </Panel>
      <Panel title="Web address">
        <Form method="post" {...getFormProps(slugForm)} className="space-y-4">
          {slugForm.errors ? <FormMessage>{slugForm.errors.join(' ')}</FormMessage> : null}
          <Field
            label="Address"
            field={slugFields.slug}
            type="text"
            hint="Links with the old address stop working."
          />
          <SubmitButton name="intent" value="slug">
            Change address
          </SubmitButton>
        </Form>
      </Panel>
      {isOwner && !workspace.is_personal ? (
        <>
          <Panel title="Transfer ownership">
            <Form method="post" {...getFormProps(transferForm)} className="space-y-4">
              {transferForm.errors ? <FormMessage>{transferForm.errors.join(' ')}</FormMessage> : null}
              <div>
                <label htmlFor={transferFields.newOwner.id} className="block text-sm font-medium">
                  New owner
                </label>
                <select
                  {...getSelectProps(transferFields.newOwner)}
                  className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
                >
                  <option value="">Choose a member</option>
                  {others.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                    </option>
                  ))}
                </select>
                <ErrorList id={transferFields.newOwner.errorId} errors={transferFields.newOwner.errors} />
              </div>
              <p className="text-sm text-slate-600">
                You become an admin; the new owner can make you owner again.
              </p>
              <SubmitButton name="intent" value="transfer">
                Transfer ownership
              </SubmitButton>
            </Form>
          </Panel>
          <Panel title="Delete workspace">
            <Form method="post" {...getFormProps(deleteForm)} className="space-y-4">
              {deleteForm.errors ? <FormMessage>{deleteForm.errors.join(' ')}</FormMessage> : null}
              <p className="text-sm text-slate-600">
                Deletes every project, task, comment and file in it, for everyone.
              </p>
              <Field label={`Type “${workspace.name}” to confirm`} field={deleteFields.confirm} type="text" />
              <SubmitButton name="intent" value="delete">
                Delete workspace
              </SubmitButton>
            </Form>
          </Panel>
        </>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Settings · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
