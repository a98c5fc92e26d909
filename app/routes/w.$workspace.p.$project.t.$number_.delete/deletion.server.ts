// The confirmation page's question, read on the server only: the id checks (utils/uuid.ts) build a
// schema at module level, which would otherwise stay in the browser's bundle of this page.
import type { LoaderFunctionArgs } from '@remix-run/node';
import type { Deletion } from '~/components/confirm-delete.tsx';
import { dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { taskRef } from '~/utils/projects.ts';
import { atLeast } from '~/utils/roles.ts';
import { isUuid } from '~/utils/uuid.ts';
import { requireTask } from '../w.$workspace.p.$project.t.$number/task.server.ts';

/** What `…/t/:number/delete` asks about: a comment or file by its id (`?comment=`, `?file=`), else the task. */
export async function askedDeletion({ request, context, params }: LoaderFunctionArgs) {
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
  return { what, here };
}
