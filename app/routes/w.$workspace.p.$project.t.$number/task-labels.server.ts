// Putting labels on the task and taking them off. Without JavaScript the panel's checkboxes send the
// whole set (one transaction: set_task_labels); with it the picker sends each change as it is made.
// RLS decides who may (members and above, in active projects), and the foreign keys refuse a label of
// another workspace: a forged id is a 400, never a 500.
import { json } from '@remix-run/node';
import { badRequest, classifyDataError, dataErrorKind } from '~/utils/data-errors.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { isUuid } from '~/utils/uuid.ts';
import type { TaskRequest } from './task.server.ts';

/** The answer to a refused change: what the person reads beside the labels, with its status. */
function refused(intent: 'labels' | 'add-label' | 'remove-label', error: unknown) {
  const failure = classifyDataError(error);
  const message =
    failure.kind === 'invalid'
      ? 'That label is not one of this workspace’s. Reload and try again.'
      : failure.kind === 'forbidden'
        ? 'The labels of this task cannot be changed.'
        : failure.message;
  return json({ intent, labelsError: message }, { status: failure.status });
}

/** The checkboxes' form: the task gets exactly the labels ticked. */
export async function setLabels({ request, context, supabase, task, here }: TaskRequest, formData: FormData) {
  const ticked = formData.getAll('label');
  if (!ticked.every(isUuid)) throw badRequest();
  const { error } = await supabase.rpc('set_task_labels', { task_id: task.id, label_ids: ticked });
  if (error) return refused('labels', error);
  return redirectWithSession(here, request, context);
}

/** One label on (`on`) or off, from the picker. Putting on a label already there changes nothing. */
export async function toggleLabel({ supabase, member, task }: TaskRequest, labelId: string, on: boolean) {
  const intent = on ? ('add-label' as const) : ('remove-label' as const);
  if (on) {
    const { error } = await supabase
      .from('task_labels')
      .insert({ task_id: task.id, label_id: labelId, workspace_id: member.workspace.id });
    if (error && dataErrorKind(error) !== 'conflict') return refused(intent, error);
  } else {
    const { data, error } = await supabase
      .from('task_labels')
      .delete()
      .eq('task_id', task.id)
      .eq('label_id', labelId)
      .select('label_id');
    if (error) return refused(intent, error);
    if (data.length === 0)
      return json({ intent, labelsError: 'That label is not on this task.' }, { status: 404 });
  }
  return json({ intent, labelsError: null });
}
