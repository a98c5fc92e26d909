// Saving the task panel's form, and deleting one of the task's comments or files.
import { json } from '@remix-run/node';
import { emptyStorageTrash } from '~/utils/admin.server.ts';
import {
  classifyDataError,
  violatedConstraint,
  dataErrorKind,
  dataErrorResponse,
  notFound,
} from '~/utils/data-errors.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { TaskEditSchema } from '~/utils/workspace-schemas.ts';
import type { TaskRequest } from './task.server.ts';

export async function saveTask({ request, context, supabase, task, here }: TaskRequest, formData: FormData) {
  const intent = 'save' as const;
  const submission = parseWithZod(formData, { schema: TaskEditSchema });
  if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const { data, error } = await supabase
    .from('tasks')
    .update({
      title: v.title,
      description: v.description ?? '',
      status_id: v.status,
      priority: v.priority,
      assignee_id: v.assignee ? v.assignee : null,
      due_date: v.dueDate ? v.dueDate : null,
    })
    .eq('id', task.id)
    .select('id');
  // The status must be one of the task's project's: its key to the project's statuses says no otherwise.
  if (error && violatedConstraint(error) === 'tasks_status_fkey') {
    const result = submission.reply({ fieldErrors: { status: ['Choose a status of this project.'] } });
    return json({ intent, result }, { status: 400 });
  }
  // The assignee must be a member: the foreign key to the workspace's members says no otherwise.
  if (error && dataErrorKind(error) === 'invalid') {
    const result = submission.reply({ fieldErrors: { assignee: ['Choose someone from the list.'] } });
    return json({ intent, result }, { status: 400 });
  }
  if (error || data.length !== 1) {
    const failure = error ? classifyDataError(error) : null;
    const message = failure && failure.kind !== 'forbidden' ? failure.message : 'This task is read-only.';
    return json(
      { intent, result: submission.reply({ formErrors: [message] }) },
      { status: failure?.status ?? 403 },
    );
  }
  return redirectWithSession(here, request, context);
}

/**
 * Deletes one of the task's comments or files. RLS decides: a comment's author or an admin; a file's
 * uploader or an admin. A row of another task, or one RLS hides, is a plain 404.
 */
export async function deleteFromTask(
  { request, context, supabase, task, here }: TaskRequest,
  table: 'comments' | 'attachments',
  id: string,
) {
  const { data, error } = await supabase
    .from(table)
    .delete()
    .eq('id', id)
    .eq('task_id', task.id)
    .select('id');
  if (error) throw dataErrorResponse(error);
  if (data.length === 0) throw notFound();
  // A deleted attachment's file follows its row through the trash.
  if (table === 'attachments') await emptyStorageTrash();
  return redirectWithSession(here, request, context);
}
