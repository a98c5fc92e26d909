import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { readForm } from '~/utils/form-body.server.ts';
import { requireProject } from '~/utils/project.server.ts';
import { projectPath } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { saveView } from '~/utils/saved-views.server.ts';
import { readViewQuery, viewParams, viewPath } from '~/utils/saved-views.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { SaveViewForm } from './w.$workspace.p.$project/save-view.tsx';

// Saving a view: the board's "Save view" form posts here. Without JavaScript a refusal (a name that
// is taken, too long) is answered with this page, the form again with the message next to the field
// and what was typed kept; the page also opens on its own, for the view of its address's parameters.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member } = await signedIn(request, context, { workspace: params.workspace });
  const project = requireProject(request, context, member, params.project);
  const address = new URL(request.url).searchParams;
  const search = viewParams(readViewQuery(address)).toString();
  return json({
    project: { name: project.name },
    kind: address.get('kind') === 'list' ? ('list' as const) : ('board' as const),
    canShare: atLeast(member.role, 'admin'),
    boardPath: `${projectPath(member.workspace.slug, project.key)}${search ? `?${search}` : ''}`,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const project = requireProject(request, context, member, params.project);
  const formData = await readForm(request);
  const saved = await saveView(supabase, formData, {
    workspaceId: member.workspace.id,
    projectId: project.id,
  });
  if ('reply' in saved) return json({ result: saved.reply }, { status: saved.status });
  const query = readViewQuery(new URLSearchParams(String(formData.get('query') ?? '')));
  return redirectWithSession(
    viewPath(member.workspace.slug, project.key, saved.id, query, saved.kind),
    request,
    context,
  );
}

export default function NewView() {
  const { project, kind, canShare, boardPath } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-md">
      <h1 className="text-xl font-semibold">Save a view of {project.name}</h1>
      <p className="mt-1 text-sm text-slate-600">
        The view keeps the filters and sort of the page you came from, under a name.
      </p>
      <div className="mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <SaveViewForm Form={Form} canShare={canShare} kind={kind} reply={reply?.result} />
      </div>
      <p className="mt-4 text-sm">
        <Link to={boardPath} className="text-indigo-700 underline">
          Back to the board
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Save a view · ${data?.project.name ?? 'Project'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
