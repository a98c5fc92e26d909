// The list's bulk edit: the ticked rows' tasks get a status, a priority or an assignee, or go to the
// trash, in one call of `bulk_edit_tasks`, which lets row-level security decide task by task and
// answers how many changed and how many were refused. The page says so (role="status").
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import * as zm from 'zod/mini';
import type { Database } from '~/types/database.ts';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { MAX_BULK_EDIT } from '~/utils/list.ts';
import { TASK_PRIORITIES } from '~/utils/workspace-schemas.ts';

/** What the page shows after a bulk edit: how it went, in the list's own words. */
export type BulkReply =
  { bulk: { changed: number; refused: number; trashed: boolean } } | { bulkError: string };

const blank = (value: unknown) => (value === '' ? undefined : value);

const BulkForm = z.object({
  task: z.array(z.string().uuid()),
  status: z.preprocess(blank, z.string().uuid().optional()),
  priority: z.preprocess(blank, z.enum(TASK_PRIORITIES).optional()),
  // 'none' takes the assignee away.
  assignee: z.preprocess(blank, z.union([z.literal('none'), z.string().uuid()]).optional()),
});

export async function bulkEdit(
  supabase: SupabaseClient<Database>,
  formData: FormData,
  trash: boolean,
): Promise<BulkReply> {
  const parsed = BulkForm.safeParse({
    task: formData.getAll('task'),
    status: formData.get('status') ?? '',
    priority: formData.get('priority') ?? '',
    assignee: formData.get('assignee') ?? '',
  });
  if (!parsed.success)
    return { bulkError: 'Those choices are not valid here. Reload the list and try again.' };
  const { task, status, priority, assignee } = parsed.data;
  if (task.length === 0) return { bulkError: 'Tick the tasks to change first.' };
  if (new Set(task).size > MAX_BULK_EDIT)
    return { bulkError: `Change at most ${MAX_BULK_EDIT} tasks at once. Tick fewer and try again.` };
  const changes: Record<string, unknown> = trash
    ? { trash: true }
    : {
        ...(status ? { status_id: status } : {}),
        ...(priority ? { priority } : {}),
        ...(assignee ? { assignee_id: assignee === 'none' ? null : assignee } : {}),
      };
  if (Object.keys(changes).length === 0)
    return { bulkError: 'Choose a status, a priority or an assignee to set.' };
  const { data, error } = await supabase.rpc('bulk_edit_tasks', {
    task_ids: task,
    changes: changes as never,
  });
  if (error) {
    const failure = classifyDataError(error);
    return {
      bulkError:
        failure.kind === 'too_large'
          ? `Change at most ${MAX_BULK_EDIT} tasks at once. Tick fewer and try again.`
          : failure.kind === 'unavailable'
            ? failure.message
            : 'Nothing was changed: those choices are not valid here. Reload the list and try again.',
    };
  }
  const { changed, refused } = data as { changed: number; refused: number };
  return { bulk: { changed, refused, trashed: trash } };
}

/** The list's forms: the bulk edit's two buttons. */
export const ListIntent = zm.discriminatedUnion('intent', [
  zm.object({ intent: zm.literal('bulk-edit') }),
  zm.object({ intent: zm.literal('bulk-trash') }),
]);
