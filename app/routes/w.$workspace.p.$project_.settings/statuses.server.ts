// The project's statuses, changed from its settings: each write is one backend call, and each
// refusal the database gives is said next to the field it is about, with what was typed kept.
import { json } from '@remix-run/node';
import { classifyDataError, violatedConstraint } from '~/utils/data-errors.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';
import { DeleteStatusSchema, StatusSchema } from '~/utils/workspace-schemas.ts';

type Supabase = RequestSupabase['supabase'];

/** The database's rules for statuses (their constraints), as the person reads them, and where. */
const REFUSALS: Record<string, { field: string; message: string }> = {
  project_statuses_name_key: { field: 'name', message: 'This project already has a status with that name.' },
  project_statuses_name_length: { field: 'name', message: 'Use 1 to 30 characters.' },
  project_statuses_name_characters: { field: 'name', message: 'Use letters, digits and punctuation only.' },
  project_statuses_limit: { field: '', message: 'A project has at most 50 statuses.' },
  project_statuses_keep_completed: {
    field: 'category',
    message: 'A project keeps at least one status of the Done category.',
  },
  project_statuses_destination_required: { field: 'moveTo', message: 'Choose where its tasks go.' },
  project_statuses_destination_fkey: { field: 'moveTo', message: 'Choose another status of this project.' },
};

/** What a refused write replies: the message next to its field (or above the form), and a status. */
function refusal(error: unknown) {
  const rule = REFUSALS[violatedConstraint(error) ?? ''];
  if (rule) return { field: rule.field, message: rule.message, status: 400 };
  const failure = classifyDataError(error);
  const message = failure.kind === 'forbidden' ? 'Only admins change statuses.' : failure.message;
  return { field: '', message, status: failure.status };
}

type Reply = {
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => unknown;
};

function refused(intent: string, statusId: string | null, submission: Reply, error: unknown) {
  const { field, message, status } = refusal(error);
  const result = field
    ? submission.reply({ fieldErrors: { [field]: [message] } })
    : submission.reply({ formErrors: [message] });
  return json({ intent, statusId, result }, { status });
}

export async function addStatus(
  supabase: Supabase,
  project: { id: string; workspaceId: string },
  formData: FormData,
) {
  const intent = 'add-status';
  const submission = parseWithZod(formData, { schema: StatusSchema });
  if (submission.status !== 'success')
    return json({ intent, statusId: null, result: submission.reply() }, { status: 400 });
  const { error } = await supabase
    .from('project_statuses')
    // Placed last by the database.
    .insert({ workspace_id: project.workspaceId, project_id: project.id, ...submission.value });
  if (error) return refused(intent, null, submission, error);
  return null;
}

export async function editStatus(supabase: Supabase, statusId: string, formData: FormData) {
  const intent = 'edit-status';
  const submission = parseWithZod(formData, { schema: StatusSchema });
  if (submission.status !== 'success')
    return json({ intent, statusId, result: submission.reply() }, { status: 400 });
  const { data, error } = await supabase
    .from('project_statuses')
    .update(submission.value)
    .eq('id', statusId)
    .select('id');
  if (error) return refused(intent, statusId, submission, error);
  if (data.length === 0)
    return json(
      { intent, statusId, result: submission.reply({ formErrors: ['This status no longer exists.'] }) },
      { status: 404 },
    );
  return null;
}

export async function deleteStatus(supabase: Supabase, statusId: string, formData: FormData) {
  const intent = 'delete-status';
  const submission = parseWithZod(formData, { schema: DeleteStatusSchema });
  if (submission.status !== 'success')
    return json({ intent, statusId, result: submission.reply() }, { status: 400 });
  const { error } = await supabase.rpc('delete_project_status', {
    status_id: statusId,
    move_to: submission.value.moveTo,
  });
  if (error) return refused(intent, statusId, submission, error);
  return null;
}

/** One step up or down, or (drag and drop) to a place in the list; a refusal is the page's error. */
export async function moveStatus(
  supabase: Supabase,
  statusId: string,
  to: { direction: 'up' | 'down' } | { toIndex: number },
) {
  const { error } = await supabase.rpc(
    'move_project_status',
    'direction' in to
      ? { status_id: statusId, direction: to.direction }
      : { status_id: statusId, to_index: to.toIndex },
  );
  if (error) {
    const { message, status } = refusal(error);
    return json({ intent: 'move-status', statusId, moveError: message }, { status });
  }
  return null;
}
