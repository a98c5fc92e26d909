// Writing on a task: a new comment (its one-time key makes a comment sent twice one comment), and
// its author's edits.
import { json } from '@remix-run/node';
import { classifyDataError, notFound } from '~/utils/data-errors.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { CommentSchema } from '~/utils/workspace-schemas.ts';
import type { TaskRequest } from './task.server.ts';

export async function addComment(
  { request, context, supabase, member, task, here }: TaskRequest,
  formData: FormData,
) {
  const intent = 'comment' as const;
  const submission = parseWithZod(formData, { schema: CommentSchema });
  const key = submission.status === 'success' ? submission.value.key : undefined;
  if (submission.status !== 'success')
    return json({ intent, key, result: submission.reply() }, { status: 400 });
  const row = {
    workspace_id: member.workspace.id,
    task_id: task.id,
    body: submission.value.body,
    client_key: key ?? null,
  };
  const { error } = key
    ? await supabase
        .from('comments')
        .upsert(row, { onConflict: 'author_id,client_key', ignoreDuplicates: true })
    : await supabase.from('comments').insert(row);
  if (error) {
    const failure = classifyDataError(error);
    const message = failure.kind === 'forbidden' ? 'This task is read-only.' : failure.message;
    return json(
      { intent, key, result: submission.reply({ formErrors: [message] }) },
      { status: failure.status },
    );
  }
  return redirectWithSession(here, request, context);
}

export async function editComment(
  { request, context, supabase, user, task, here }: TaskRequest,
  formData: FormData,
  commentId: string,
) {
  const intent = 'edit-comment' as const;
  const submission = parseWithZod(formData, { schema: CommentSchema });
  if (submission.status !== 'success')
    return json({ intent, commentId, result: submission.reply() }, { status: 400 });
  // RLS lets authors alone edit; the author filter makes someone else's comment a plain 404.
  const { data, error } = await supabase
    .from('comments')
    .update({ body: submission.value.body })
    .eq('id', commentId)
    .eq('task_id', task.id)
    .eq('author_id', user.id)
    .select('id');
  if (error) {
    const failure = classifyDataError(error);
    const result = submission.reply({ formErrors: [failure.message] });
    return json({ intent, commentId, result }, { status: failure.status });
  }
  if (data.length === 0) throw notFound();
  return redirectWithSession(here, request, context);
}
