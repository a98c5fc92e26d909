// The task panel's timeline: the task's comments and its history (public.task_history, written by
// the database's triggers) as one list by time, each entry with who and when. Both are read in one
// request, embedded in the task, so the panel asks the backend no more often than it did for the
// comments alone.
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { readTimeZone } from '~/utils/time-zone.server.ts';
import type { TaskRequest } from './task.server.ts';
import type { Json } from '~/types/database.ts';

const TIMELINE =
  'comments(id, body, created_at, edited_at, author_id, author:profiles!comments_author_profile_fkey(display_name)), task_history(id, kind, data, actor_id, created_at)';

/** The task's comments and history entries, each oldest first, and the clock to date them by. */
export async function readTimeline({ supabase, task, request }: TaskRequest) {
  const { data, error } = await supabase
    .from('tasks')
    .select(TIMELINE)
    .eq('id', task.id)
    .order('created_at', { referencedTable: 'comments' })
    .order('id', { referencedTable: 'task_history' })
    .single();
  if (error) throw dataErrorResponse(error);
  return {
    comments: data.comments,
    history: data.task_history,
    // The server's clock and the reader's zone, so the relative times read the same in the server's
    // render and in the browser's hydration (app/components/time.tsx).
    clock: { now: new Date().toISOString(), timeZone: readTimeZone(request) },
  };
}

type Timeline = Awaited<ReturnType<typeof readTimeline>>;
type Comment = Timeline['comments'][number];

export type TimelineEntry =
  | { type: 'comment'; key: string; at: string; comment: Comment }
  | { type: 'change'; key: string; at: string; actor: string | null; kind: string; data: Json };

/**
 * Comments and changes in one list by time (a change before a comment of the same instant: the
 * task's creation comes before anything said on it). `names` gives the members' display names; an
 * actor who is none (a former member, a deleted account, the system) is null.
 */
export function mergeTimeline(
  comments: Comment[],
  history: Timeline['history'],
  names: ReadonlyMap<string, string>,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...history.map((h): TimelineEntry => ({
      type: 'change',
      key: `h${h.id}`,
      at: h.created_at,
      actor: h.actor_id ? (names.get(h.actor_id) ?? null) : null,
      kind: h.kind,
      data: h.data,
    })),
    ...comments.map((c): TimelineEntry => ({ type: 'comment', key: c.id, at: c.created_at, comment: c })),
  ];
  // A stable sort: entries of the same instant keep the order above (changes in the order written).
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
