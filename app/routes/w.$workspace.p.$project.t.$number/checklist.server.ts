// Ticking a checklist item of the description: one RPC (public.tick_checklist_item) that changes only
// that item's box, and says 409 when the item's words are no longer those the reader ticked.
import { json } from '@remix-run/node';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import type { TaskRequest } from './task.server.ts';

/** A box's value (markdown.server.ts): the item's number, 1 to tick or 0 to untick, and its text. */
const ITEM = /^([1-9][0-9]{0,5}):([01]):(.*)$/s;

export async function tickItem({ request, context, supabase, task, here }: TaskRequest, value: string) {
  const intent = 'tick' as const;
  const m = ITEM.exec(value);
  if (!m) return json({ intent, tickError: 'That checklist item could not be read.' }, { status: 400 });
  const { error } = await supabase.rpc('tick_checklist_item', {
    task_id: task.id,
    item: Number(m[1]),
    checked: m[2] === '1',
    item_text: m[3]!,
  });
  if (error) {
    const failure = classifyDataError(error);
    const tickError =
      failure.kind === 'conflict'
        ? error.message
        : failure.kind === 'forbidden'
          ? 'This task is read-only.'
          : failure.message;
    return json({ intent, tickError }, { status: failure.status });
  }
  return redirectWithSession(here, request, context);
}
