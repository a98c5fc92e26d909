// A column's new-task form. Its one-time key (made when the board was drawn) makes a create sent
// twice (a retry after a lost answer) one task.
import { json, type AppLoadContext } from '@remix-run/node';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { NewTaskSchema } from '~/utils/workspace-schemas.ts';

export async function createTask({
  request,
  context,
  supabase,
  formData,
  workspaceId,
  projectId,
  boardUrl,
}: {
  request: Request;
  context: AppLoadContext;
  supabase: RequestSupabase['supabase'];
  formData: FormData;
  workspaceId: string;
  projectId: string;
  boardUrl: string;
}) {
  const submission = parseWithZod(formData, { schema: NewTaskSchema });
  // The column whose form answers, to keep it open with its message.
  const status = String(formData.get('status') ?? '');
  const key = submission.status === 'success' ? submission.value.key : undefined;
  if (submission.status !== 'success')
    return json({ status, key, result: submission.reply() }, { status: 400 });
  const row = {
    workspace_id: workspaceId,
    project_id: projectId,
    title: submission.value.title,
    status_id: submission.value.status,
    client_key: key ?? null,
  };
  const { error } = key
    ? await supabase
        .from('tasks')
        .upsert(row, { onConflict: 'created_by,client_key', ignoreDuplicates: true })
    : await supabase.from('tasks').insert(row);
  if (error) {
    const failure = classifyDataError(error);
    const message =
      failure.kind === 'forbidden'
        ? 'This project is archived: its board is read-only.'
        : failure.kind === 'invalid'
          ? 'That column is no longer on this board. Reload and try again.'
          : failure.message;
    return json(
      { status, key, result: submission.reply({ formErrors: [message] }) },
      { status: failure.status },
    );
  }
  return redirectWithSession(boardUrl, request, context);
}
