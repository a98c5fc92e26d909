import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { LabelChips } from '~/components/label-chip.tsx';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { LabelsIntent } from './intents.server.ts';
import { LabelRow, NewLabel } from './label-forms.tsx';
import { createLabel, deleteLabel, updateLabel } from './labels.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const { data, error } = await supabase
    .from('labels')
    .select('id, name, color')
    .eq('workspace_id', member.workspace.id)
    .order('name');
  if (error) throw dataErrorResponse(error);
  return json({
    labels: data.sort((a, b) => a.name.localeCompare(b.name)),
    canManage: atLeast(member.role, 'admin'),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const formData = await readForm(request);
  const sent = readIntent(formData, LabelsIntent);
  const page = {
    request,
    context,
    supabase,
    workspaceId: member.workspace.id,
    back: `/w/${member.workspace.slug}/labels`,
  };
  switch (sent.intent) {
    case 'create':
      return createLabel(page, formData);
    case 'update':
      return updateLabel(page, formData, sent.id);
    case 'delete':
      return deleteLabel(page, sent.id);
  }
}

export default function Labels() {
  const { labels, canManage } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-xl font-semibold">Labels</h1>
      {canManage ? (
        <>
          {/* A new key after each label made empties the form; a refused one keeps what was typed. */}
          <NewLabel key={labels.length} lastResult={reply?.intent === 'create' ? reply.result : undefined} />
          {labels.length > 0 ? (
            <ul
              aria-label="Labels"
              className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
            >
              {labels.map((label) => (
                <LabelRow
                  // Changed elsewhere (another admin, another tab), the row starts again from the saved label.
                  key={`${label.id}:${label.name}:${label.color}`}
                  label={label}
                  lastResult={reply?.intent === 'update' && reply.id === label.id ? reply.result : undefined}
                />
              ))}
            </ul>
          ) : null}
        </>
      ) : labels.length > 0 ? (
        <LabelChips labels={labels} max={Infinity} />
      ) : null}
      {labels.length === 0 ? (
        <p className="text-sm text-slate-600">
          No labels yet.{canManage ? '' : ' An admin of this workspace can create them.'}
        </p>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Labels · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
