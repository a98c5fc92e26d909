// The tasks' trash, as the app uses it: moving a task there (public.trash_task), taking it back
// (public.restore_task), and the board's "moved to the trash" notice with its Undo. The database
// decides who may do either (admins, SPEC section 6); this only reports what it answered.
//
// The notice rides to the board in a signed one-time cookie of its own, as the flash messages do
// (flash.server.ts): it carries the task's id and its name as the server read them, never anything
// a visitor sent, and the signature keeps anyone else from planting one.
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import type { TrashNotice } from '~/components/trash-notice.tsx';
import { classifyDataError, dataErrorResponse, notFound } from './data-errors.server.ts';
import { oneTimeCookie, readOneTimeCookie } from './flash.server.ts';
import type { RequestSupabase } from './session/supabase.server.ts';
import { redirectWithSession } from './session/user.server.ts';

export const TRASH_NOTICE_COOKIE = 'crewboard_trashed';

const TrashNoticeValue = z.object({ taskId: z.string().uuid(), ref: z.string().max(40) });

/**
 * Moves the task to the trash, then to its board with the notice. A refusal answers as the database
 * said: 403 for a member, 404 for a task gone, 409 in an archived project.
 */
export async function trashTask(
  supabase: RequestSupabase['supabase'],
  request: Request,
  context: AppLoadContext,
  task: { id: string; ref: string },
  boardUrl: string,
): Promise<Response> {
  const { error } = await supabase.rpc('trash_task', { task_id: task.id });
  if (error) throw dataErrorResponse(error);
  const response = redirectWithSession(boardUrl, request, context);
  response.headers.append(
    'Set-Cookie',
    await oneTimeCookie(TRASH_NOTICE_COOKIE, request).serialize({ taskId: task.id, ref: task.ref }),
  );
  return response;
}

/** The notice this request carries, if its signature holds, and the header that clears it. */
export async function readTrashNotice(
  request: Request,
): Promise<{ notice: TrashNotice | null; headers: HeadersInit }> {
  const { value, clear } = await readOneTimeCookie(request, TRASH_NOTICE_COOKIE, TrashNoticeValue);
  return {
    notice: value ? { ...value, id: crypto.randomUUID() } : null,
    headers: clear ? { 'Set-Cookie': clear } : {},
  };
}

/**
 * Takes the task out of the trash. Answers where it is again (its project's key and its number), or
 * the database's reason it cannot be: no longer in the trash, or its project archived (409); a
 * member's attempt is a 403.
 */
export async function restoreTask(
  supabase: RequestSupabase['supabase'],
  taskId: string,
): Promise<{ ok: true; projectKey: string; number: number } | { ok: false; status: 409; message: string }> {
  const { data, error } = await supabase.rpc('restore_task', { task_id: taskId });
  if (error) {
    const failure = classifyDataError(error);
    if (failure.kind === 'conflict') return { ok: false, status: 409, message: error.message };
    throw dataErrorResponse(error);
  }
  const restored = RestoredTask.safeParse(data);
  if (!restored.success) throw notFound();
  return { ok: true, projectKey: restored.data.project_key, number: restored.data.number };
}

const RestoredTask = z.object({ project_key: z.string(), number: z.number().int() });
