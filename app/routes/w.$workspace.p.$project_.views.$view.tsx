import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { FormMessage } from '~/components/forms.tsx';
import { readForm } from '~/utils/form-body.server.ts';
import { requireProject } from '~/utils/project.server.ts';
import { projectPath } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { deleteView, requireView, setViewShared } from '~/utils/saved-views.server.ts';
import { addressedKind, hasViewParams, readViewQuery, viewParams, viewPath } from '~/utils/saved-views.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import Board, { action as boardAction, loader as boardLoader } from './w.$workspace.p.$project/route.tsx';
import { SaveView } from './w.$workspace.p.$project/save-view.tsx';
import List, { action as listAction, loader as listLoader } from './w.$workspace.p.$project_.list/route.tsx';

// A saved view: the board or the list (the same route module, loader and component) with the view's
// filters and sort, under the view's name. Its address carries the view's parameters (the sidebar links
// to it so, and a bare address is sent there), so the page's one backend call reads it already filtered
// and sorted, and the filters and sort stay adjustable: a changed one is an address of its own, until
// the view's is opened again.

/** The view of this address, read as the caller (RLS: their own and the shared ones), or a 404. */
async function findView({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase, user } = await signedIn(request, context, { workspace: params.workspace });
  const project = requireProject(request, context, member, params.project);
  const view = await requireView(supabase, params.view, project.id);
  return { member, project, view, supabase, me: user.id };
}

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  // The page the address names is asked for first, before anything waits, so its one backend call also
  // answers the session check; the view is read beside it. An address that names the wrong kind, or
  // none of the view's parameters, is sent to the view's own.
  const address = new URL(request.url).searchParams;
  const kind = addressedKind(address);
  const [page, { member, project, view, me }] = await Promise.all([
    kind === 'list' ? listLoader(args) : boardLoader(args),
    findView(args),
  ]);
  const slug = member.workspace.slug;
  if (view.kind !== kind || (!hasViewParams(address) && viewParams(view.query).size > 0)) {
    const query = hasViewParams(address) ? readViewQuery(address) : view.query;
    throw redirectWithSession(viewPath(slug, project.key, view.id, query, view.kind), request, context);
  }
  const data = await page.json();
  const canManage = data.canManage;
  return json(
    {
      ...data,
      view: {
        id: view.id,
        name: view.name,
        kind: view.kind,
        shared: view.shared,
        // What the policies let this person do with it (the forms are shown only to them).
        canShare: !view.shared && canManage,
        canUnshare: view.shared && canManage && view.owner_id === me,
        canDelete: view.shared ? canManage : view.owner_id === me,
      },
    },
    { headers: page.headers },
  );
}

const VIEW_INTENTS = new Set(['share', 'unshare', 'delete-view']);

export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args;
  const intent = (await readForm(request.clone())).get('intent');
  if (typeof intent !== 'string' || !VIEW_INTENTS.has(intent)) {
    // The page's own forms (a new task, a move; a bulk edit): the action of the page the address names
    // (the database decides what the person may change either way), then back to this view rather
    // than the board.
    const pageAction = addressedKind(new URL(request.url).searchParams) === 'list' ? listAction : boardAction;
    const answer = await pageAction(args).catch((thrown: unknown) => {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    });
    return backToView(answer, request, params);
  }
  requireSameSite(request);
  const { member, project, view, supabase } = await findView(args);
  const problem =
    intent === 'delete-view'
      ? await deleteView(supabase, view.id)
      : await setViewShared(supabase, view.id, intent === 'share');
  if (problem) return json({ viewError: problem }, { status: 403 });
  const url = new URL(request.url);
  const next =
    intent === 'delete-view'
      ? projectPath(member.workspace.slug, project.key)
      : `${url.pathname}${url.search}`;
  return redirectWithSession(next, request, context);
}

/** A redirect of the board's action to the board comes back to this view, with the same parameters. */
function backToView(answer: Response, request: Request, params: ActionFunctionArgs['params']): Response {
  const location = answer.headers.get('Location');
  if (!location || answer.status < 300 || answer.status >= 400) return answer;
  const target = new URL(location, request.url);
  if (target.pathname !== projectPath(params.workspace ?? '', params.project ?? '')) return answer;
  answer.headers.set('Location', `${new URL(request.url).pathname}${target.search}`);
  return answer;
}

export default function SavedViewPage() {
  const { view } = useLoaderData<typeof loader>();
  const Page = view.kind === 'list' ? List : Board;
  return <Page title={view.name} savedView={<ViewControls />} />;
}

/** What the view is, and what this person may do with it: share, unshare, delete, save another. */
function ViewControls() {
  const { view, canManage } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const problem = reply && 'viewError' in reply ? reply.viewError : null;
  return (
    <>
      <p className="text-sm text-slate-600">
        {view.shared ? 'Saved view, shared with the workspace.' : 'Saved view: only you see it.'}
      </p>
      {view.canShare ? <ViewAction intent="share">Share with the workspace</ViewAction> : null}
      {view.canUnshare ? <ViewAction intent="unshare">Stop sharing</ViewAction> : null}
      {view.canDelete ? <ViewAction intent="delete-view">Delete view</ViewAction> : null}
      <SaveView canShare={canManage} kind={view.kind} />
      {problem ? <FormMessage>{problem}</FormMessage> : null}
    </>
  );
}

/** One button of the view's, in a form of its own (posted to this page's action). */
function ViewAction({ intent, children }: { intent: string; children: string }) {
  return (
    <Form method="post">
      <button type="submit" name="intent" value={intent} className="filter-control font-medium">
        {children}
      </button>
    </Form>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.view.name ?? 'Saved view'} · ${data?.project.name ?? 'Board'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
