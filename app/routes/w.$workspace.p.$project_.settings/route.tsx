import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { ImportForm } from '~/components/import-form.tsx';
import { FormMessage } from '~/components/forms.tsx';
import { Panel } from '~/components/panel.tsx';
import type { StatusCategory } from '~/utils/board.ts';
import { dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { requireProjectSettings } from '~/utils/project-settings.server.ts';
import { projectPath } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import type { IntentReply } from './project-forms.tsx';
import { ProjectArchiving, ProjectDetails } from './project-forms.tsx';
import { archiveProject, saveDetails } from './project.server.ts';
import { ProjectSettingsIntent } from './intents.server.ts';
import { StatusList } from './status-list.tsx';
import { addStatus, deleteStatus, editStatus, moveStatus } from './statuses.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase, project } = await requireProjectSettings(request, context, params);
  // The project and its statuses, each with how many tasks it holds, in one request.
  const { data, error } = await supabase
    .from('projects')
    .select(
      'id, key, name, description, archived_at, statuses:project_statuses(id, name, category, position, tasks(count))',
    )
    .eq('id', project.id)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  if (!data) throw notFound();
  const statuses = data.statuses
    .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
    .map((s) => ({
      id: s.id,
      name: s.name,
      category: s.category as StatusCategory,
      tasks: s.tasks[0]?.count ?? 0,
    }));
  return json({
    project: { key: data.key, name: data.name, description: data.description, archived_at: data.archived_at },
    statuses,
    boardPath: projectPath(member.workspace.slug, data.key),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { member, supabase, project } = await requireProjectSettings(request, context, params);
  const formData = await readForm(request);
  const sent = readIntent(formData, ProjectSettingsIntent);
  const done = () => redirectWithSession(new URL(request.url).pathname, request, context);
  let reply: Response | null;
  switch (sent.intent) {
    case 'details':
      reply = await saveDetails(supabase, project, formData);
      break;
    case 'archive':
    case 'restore':
      reply = await archiveProject(supabase, project, sent.intent === 'archive');
      break;
    case 'add-status':
      reply = await addStatus(supabase, { id: project.id, workspaceId: member.workspace.id }, formData);
      break;
    case 'edit-status':
      reply = await editStatus(supabase, sent.statusId, formData);
      break;
    case 'delete-status':
      reply = await deleteStatus(supabase, sent.statusId, formData);
      break;
    case 'move-status':
      reply = await moveStatus(supabase, sent.statusId, { direction: sent.direction });
      break;
    case 'place-status':
      reply = await moveStatus(supabase, sent.statusId, { toIndex: Number(sent.toIndex) });
      break;
  }
  return reply ?? done();
}

export default function ProjectSettings() {
  const { project, statuses, boardPath } = useLoaderData<typeof loader>();
  const reply: IntentReply | undefined = useActionData<typeof action>();
  return (
    <div className="max-w-2xl space-y-6">
      <div className="flex items-baseline justify-between gap-3">
        <h1 className="text-xl font-semibold">{project.name}: settings</h1>
        <Link to={boardPath} className="text-sm text-slate-600 underline hover:text-slate-900">
          Back to the board
        </Link>
      </div>
      <Panel title="Project">
        <ProjectDetails project={project} reply={reply} />
      </Panel>
      <Panel title="Statuses">
        <p className="mb-3 text-sm text-slate-600">
          The board’s columns, in order. Each status’s category says what it means: open work (backlog, to do,
          in progress), done, or canceled — a done or canceled task is never overdue.
        </p>
        {reply && 'moveError' in reply && reply.moveError ? (
          <FormMessage>{reply.moveError}</FormMessage>
        ) : null}
        <StatusList statuses={statuses} reply={reply} />
      </Panel>
      <Panel title="Import tasks">
        <ImportForm action={`${boardPath}/settings/import`} error={null} />
      </Panel>
      <Panel title="Archiving">
        <ProjectArchiving archived={project.archived_at !== null} />
      </Panel>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.project.name ?? 'Project'} settings · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
