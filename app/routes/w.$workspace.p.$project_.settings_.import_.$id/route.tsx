import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { FormMessage, SubmitButton } from '~/components/forms.tsx';
import { classifyDataError, dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import type { ImportPreview } from '~/utils/import/plan.server.ts';
import { requireProjectSettings } from '~/utils/project-settings.server.ts';
import { projectPath } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { ImportHeading, PreviewDetails } from './preview.tsx';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase, project } = await requireProjectSettings(request, context, params);
  if (!isUuid(params.id ?? '')) throw notFound();
  const { data, error } = await supabase
    .from('task_imports')
    .select('id, preview:payload->preview')
    .eq('id', params.id ?? '')
    .eq('project_id', project.id)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  if (!data) throw notFound();
  const preview = data.preview as unknown as ImportPreview;
  const projectUrl = projectPath(member.workspace.slug, project.key);
  return json({
    project: { name: project.name, key: project.key },
    preview,
    settingsPath: `${projectUrl}/settings`,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { member, supabase, project } = await requireProjectSettings(request, context, params);
  if (!isUuid(params.id ?? '')) throw notFound();
  const formData = await readForm(request);
  const projectUrl = projectPath(member.workspace.slug, project.key);
  if (formData.get('intent') === 'cancel') {
    const { error } = await supabase
      .from('task_imports')
      .delete()
      .eq('id', params.id ?? '');
    if (error) throw dataErrorResponse(error);
    return redirectWithSession(`${projectUrl}/settings`, request, context);
  }
  const { error } = await supabase.rpc('import_tasks', { import_id: params.id ?? '' });
  if (error) {
    const kind = classifyDataError(error);
    if (kind.kind === 'unavailable') throw dataErrorResponse(error);
    // Nothing was imported: the function runs in one transaction. Its message names the row.
    return json({ error: `Nothing was imported. ${error.message}` }, { status: kind.status });
  }
  return redirectWithFlash(projectUrl, 'tasks_imported', request, context);
}

export default function ImportPreviewPage() {
  const { project, preview, settingsPath } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="max-w-3xl space-y-6">
      <ImportHeading title={`${project.name}: import preview`} settingsPath={settingsPath} />
      {reply?.error ? <FormMessage>{reply.error}</FormMessage> : null}
      <PreviewDetails preview={preview} projectKey={project.key} />
      <Form method="post" className="flex gap-3">
        {preview.tasks > 0 ? (
          <SubmitButton name="intent" value="import">
            {`Import ${preview.tasks} ${preview.tasks === 1 ? 'task' : 'tasks'}`}
          </SubmitButton>
        ) : null}
        <button type="submit" name="intent" value="cancel" className="button-quiet">
          Cancel
        </button>
      </Form>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Import preview · ${data?.project.name ?? 'Project'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
