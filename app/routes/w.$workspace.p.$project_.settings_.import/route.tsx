import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { ImportForm } from '~/components/import-form.tsx';
import { Panel } from '~/components/panel.tsx';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { readFormBody } from '~/utils/form-body.server.ts';
import { parseImportFile } from '~/utils/import/file.server.ts';
import { asJson, planImport, readProjectSide } from '~/utils/import/plan.server.ts';
import { MAX_IMPORT_BYTES } from '~/utils/import/rows.server.ts';
import { requireProjectSettings } from '~/utils/project-settings.server.ts';
import { projectPath } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { ImportHeading } from '../w.$workspace.p.$project_.settings_.import_.$id/preview.tsx';

/** A staged import nobody went on with is dropped when its uploader stages another after a day. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, project } = await requireProjectSettings(request, context, params);
  return json({
    project: { name: project.name },
    settingsPath: `${projectPath(member.workspace.slug, project.key)}/settings`,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { member, supabase, project } = await requireProjectSettings(request, context, params);
  const { file } = await readFormBody(request, { fileField: 'file', maxFileBytes: MAX_IMPORT_BYTES });
  if (!file) return json({ error: 'Choose a file to import.' }, { status: 400 });
  const parsed = parseImportFile(file.bytes, file.tooLarge);
  if (!parsed.ok) return json({ error: parsed.message }, { status: 400 });
  if (parsed.file.rows.length === 0 && parsed.file.problems.length === 0) {
    return json({ error: 'The file holds no tasks.' }, { status: 400 });
  }
  const where = { id: project.id, workspaceId: member.workspace.id };
  const read = await readProjectSide(supabase, where, parsed.file);
  if ('error' in read) throw dataErrorResponse(read.error);
  const payload = planImport(parsed.file, file.filename.slice(0, 255), read.side);
  await supabase
    .from('task_imports')
    .delete()
    .lt('created_at', new Date(Date.now() - STALE_AFTER_MS).toISOString());
  const { data, error } = await supabase
    .from('task_imports')
    .insert({
      workspace_id: member.workspace.id,
      project_id: project.id,
      source: parsed.file.source,
      file_name: file.filename.slice(0, 255),
      payload: asJson(payload),
    })
    .select('id')
    .single();
  if (error) throw dataErrorResponse(error);
  return redirectWithSession(
    `${projectPath(member.workspace.slug, project.key)}/settings/import/${data.id}`,
    request,
    context,
  );
}

export default function ImportUpload() {
  const { project, settingsPath } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="max-w-2xl space-y-6">
      <ImportHeading title={`${project.name}: import tasks`} settingsPath={settingsPath} />
      <Panel title="Import tasks">
        <ImportForm action={`${settingsPath}/import`} error={reply?.error ?? null} />
      </Panel>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Import tasks into ${data?.project.name ?? 'a project'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
