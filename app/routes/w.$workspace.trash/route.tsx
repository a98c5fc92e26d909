import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { FormMessage } from '~/components/forms.tsx';
import { RelativeTime, useClock } from '~/components/time.tsx';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { taskPath, taskRef } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { readTimeZone } from '~/utils/time-zone.server.ts';
import { restoreTask } from '~/utils/trash.server.ts';
import { TrashIntent } from './intents.server.ts';
import { daysLeft } from './trash.ts';

// The workspace's trash, for its admins (anyone else finds no such page): the deleted tasks, newest
// first, each with its project, who deleted it and when, the days left before it is purged, and Restore.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'admin',
  });
  const { data, error } = await supabase.rpc('trashed_tasks', { workspace_id: member.workspace.id });
  if (error) throw dataErrorResponse(error);
  const now = new Date().toISOString();
  return json({
    tasks: data.map((t) => ({
      ...t,
      ref: taskRef(t.project_key, t.number),
      daysLeft: daysLeft(t.purge_at, now),
    })),
    clock: { now, timeZone: readTimeZone(request) },
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'admin',
  });
  const formData = await readForm(request);
  const sent = readIntent(formData, TrashIntent);
  const restored = await restoreTask(supabase, sent.taskId);
  if (!restored.ok)
    return json({ taskId: sent.taskId, error: restored.message }, { status: restored.status });
  // The board's Undo goes back to the task; Restore on this page stays here.
  if (formData.get('back') === 'task') {
    return redirectWithFlash(
      taskPath(member.workspace.slug, restored.projectKey, restored.number),
      'task_restored',
      request,
      context,
    );
  }
  return redirectWithFlash(`/w/${member.workspace.slug}/trash`, 'task_restored', request, context);
}

export default function Trash() {
  const { tasks, ...page } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const clock = useClock(page.clock);
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-xl font-semibold">Trash</h1>
        <p className="mt-1 text-sm text-slate-600">
          Deleted tasks stay here for 30 days with their comments and files, then they are deleted for good.
        </p>
      </div>
      {reply ? <FormMessage>{reply.error}</FormMessage> : null}
      {tasks.length === 0 ? (
        <p className="text-sm text-slate-500">The trash is empty.</p>
      ) : (
        <ul
          aria-label="Deleted tasks"
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
        >
          {tasks.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-3 p-3 text-sm">
              <div className="min-w-0">
                <p className="font-medium">
                  <span className="text-slate-500">{t.ref}</span> {t.title}
                </p>
                <p className="text-xs text-slate-600">
                  {t.project_name}
                  {t.project_archived ? ' (archived)' : ''} · deleted by {t.deleted_by_name ?? 'someone'}{' '}
                  <RelativeTime date={t.deleted_at} clock={clock} /> ·{' '}
                  {t.daysLeft === 1 ? '1 day left' : `${t.daysLeft} days left`}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="taskId" value={t.id} />
                <button
                  type="submit"
                  name="intent"
                  value="restore"
                  aria-label={`Restore ${t.ref}`}
                  className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100"
                >
                  Restore
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm">
        <Link to=".." relative="path" className="text-indigo-700 hover:underline">
          Back to the overview
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Trash · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
