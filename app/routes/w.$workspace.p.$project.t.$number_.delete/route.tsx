// The question "Delete …?" as a page of its own, for a browser without JavaScript: the task panel's
// delete controls link here (`…/t/:number/delete`, `?comment=<id>` or `?file=<id>`), and its form
// posts the delete to the panel, as the dialog does with JavaScript (components/confirm-delete.tsx).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ConfirmDeleteForm, deletionTexts, type Deletion } from '~/components/confirm-delete.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { taskRef } from '~/utils/projects.ts';
import { atLeast } from '~/utils/roles.ts';
import { isUuid } from '~/utils/uuid.ts';
import { requireTask } from '../w.$workspace.p.$project.t.$number/task.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { supabase, member, user, project, task, here } = await requireTask(
    request,
    context,
    params,
    'member',
  );
  const asked = new URL(request.url).searchParams;
  const commentId = asked.get('comment');
  const fileId = asked.get('file');
  // Only what the person may delete is asked about; the database decides again when the form is sent.
  const admin = atLeast(member.role, 'admin');
  let what: Deletion;
  if (commentId !== null) {
    if (!isUuid(commentId)) throw notFound();
    const { data, error } = await supabase
      .from('comments')
      .select('id, author_id')
      .eq('id', commentId)
      .eq('task_id', task.id)
      .maybeSingle();
    if (error) throw dataErrorResponse(error);
    if (!data || !(data.author_id === user.id || admin)) throw notFound();
    what = { kind: 'comment', id: data.id };
  } else if (fileId !== null) {
    if (!isUuid(fileId)) throw notFound();
    const { data, error } = await supabase
      .from('attachments')
      .select('id, name, uploaded_by')
      .eq('id', fileId)
      .eq('task_id', task.id)
      .maybeSingle();
    if (error) throw dataErrorResponse(error);
    if (!data || !(data.uploaded_by === user.id || admin)) throw notFound();
    what = { kind: 'file', id: data.id, name: data.name };
  } else {
    if (!admin) throw notFound();
    what = { kind: 'task', ref: taskRef(project.key, task.number) };
  }
  return json({ what, here });
}

export default function ConfirmDeletePage() {
  const { what, here } = useLoaderData<typeof loader>();
  return (
    <aside
      aria-labelledby="confirm-delete-title"
      className="fixed inset-y-0 right-0 z-10 w-full overflow-y-auto border-l border-slate-200 bg-white p-5 shadow-xl sm:max-w-lg"
    >
      <ConfirmDeleteForm
        what={what}
        action={here}
        titleId="confirm-delete-title"
        cancel={
          <Link to={here} className="rounded-md px-3 py-1.5 text-sm font-medium hover:bg-slate-100">
            Cancel
          </Link>
        }
      />
    </aside>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${deletionTexts(data.what).title} · Crewboard` : 'Crewboard' },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
