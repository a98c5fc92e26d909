// The board's move action: where a task lands, read from the database (the board shows only a
// window of each column), saved by `move_task`. The board's optimistic copy of the same rule is
// `applyMove` in app/utils/board.ts; both read the form through `readMove`.
import { json } from '@remix-run/node';
import type { AppLoadContext } from '@remix-run/node';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { readMove, type Status } from '~/utils/board.ts';
import { classifyDataError, dataErrorResponse, notFound, badRequest } from '~/utils/data-errors.server.ts';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';

type Supabase = RequestSupabase['supabase'];

/**
 * The neighbours a one-step move (↑ or ↓, without JavaScript) lands between: the card it passes and
 * the one beyond it, read from the database, since the board shows only a window of each column.
 * Null when the task is already at that end of its column.
 */ async function stepNeighbours(
  supabase: Supabase,
  task: { id: string; project_id: string; status: Status; position: number },
  direction: 'up' | 'down',
): Promise<{ after_task_id?: string; before_task_id?: string } | null> {
  const up = direction === 'up';
  const query = supabase
    .from('tasks')
    .select('id')
    .eq('project_id', task.project_id)
    .eq('status_id', task.status)
    .neq('id', task.id);
  const { data, error } = await (
    up ? query.lt('position', task.position) : query.gt('position', task.position)
  )
    .order('position', { ascending: !up })
    .order('id', { ascending: !up })
    .limit(2);
  if (error) throw dataErrorResponse(error);
  const [passed, beyond] = data;
  if (!passed) return null;
  return up
    ? { before_task_id: passed.id, after_task_id: beyond?.id }
    : { after_task_id: passed.id, before_task_id: beyond?.id };
}

/**
 * Moves the task the form names, within the board's project. `boardUrl` and `taskUrl` are where a
 * browser without JavaScript goes back to afterwards.
 */
export async function moveTask({
  request,
  context,
  supabase,
  formData,
  projectId,
  boardUrl,
  taskUrl,
  listTaskUrl,
}: {
  request: Request;
  context: AppLoadContext;
  supabase: Supabase;
  formData: FormData;
  projectId: string;
  boardUrl: string;
  taskUrl: (taskNumber: number) => string;
  listTaskUrl: (taskNumber: number) => string;
}) {
  // With JavaScript a move is a fetcher (its form says so: Remix hides `?_data` from actions): it
  // answers with data, and the fetcher keeps showing the move until the revalidated board has it. A
  // redirect would end the fetcher at once, and a revalidation begun before the move was saved could
  // then draw the board without it. Without JavaScript the answer is a redirect (post, redirect, get).
  const fromScript = formData.get('via') === 'script';
  const move = readMove(formData);
  if (!move) throw badRequest();
  const { taskId, status, direction, beforeTaskId, afterTaskId } = move;
  const { data: task, error: taskError } = await supabase
    .from('tasks')
    .select('id, number, project_id, status:status_id, position')
    .eq('id', taskId)
    .eq('project_id', projectId)
    .maybeSingle();
  if (taskError) throw dataErrorResponse(taskError);
  if (!task) {
    if (fromScript) return json({ moveError: 'This task no longer exists.', taskId }, { status: 404 });
    throw notFound();
  }
  // The task panel's move forms (no JavaScript needed) come back to the panel, over the board or
  // over the list, whichever it was opened on.
  const back = formData.get('back');
  const backTo =
    back === 'panel' ? taskUrl(task.number) : back === 'list-panel' ? listTaskUrl(task.number) : boardUrl;
  const unchanged = () =>
    fromScript ? json({ moved: taskId }) : redirectWithSession(backTo, request, context);
  let neighbours: { after_task_id?: string; before_task_id?: string } = {};
  if (beforeTaskId || afterTaskId) {
    neighbours = { after_task_id: afterTaskId, before_task_id: beforeTaskId };
  } else if (status === task.status) {
    // Same column, nowhere to go (top moved up, bottom moved down, or no direction): nothing changes.
    const step = direction ? await stepNeighbours(supabase, task, direction) : null;
    if (!step) return unchanged();
    neighbours = step;
  }
  const { error } = await supabase.rpc('move_task', { task_id: taskId, status_id: status, ...neighbours });
  if (error) {
    // Shown on the board (and the optimistic move rolled back), never an error page.
    const failure = classifyDataError(error);
    const moveError = {
      forbidden: 'You cannot move this task.',
      // move_task refuses neighbours that are no longer where the board showed them.
      invalid: 'The board changed while you were moving this task. Try again.',
      conflict: 'The board changed while you were moving this task. Try again.',
      // The task, or the column it was moved to (another project's, or deleted since).
      not_found: 'This task or that column no longer exists.',
      too_large: failure.message,
      unavailable: failure.message,
    }[failure.kind];
    return json({ moveError, taskId }, { status: failure.kind === 'invalid' ? 409 : failure.status });
  }
  return unchanged();
}
