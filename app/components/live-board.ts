// The board's live subscription: its tasks, columns, labels, comments and the history entries that
// move other cards, each change handed to what the board applies itself (BoardChanges) or gathered
// into one reload; and who else is on the board (presence). The channel itself: live.tsx.
export interface Viewer {
  id: string;
  name: string;
}
import { useRef, useState } from 'react';
import { ifShown, onLabels, useLiveChannel, type LiveState } from './live.tsx';

/** A row as Realtime sends it: the columns the reader may select. */
export type ChangedRow = Record<string, unknown>;

/**
 * What the board applies to its own copy. Each returns false when the change is not applied (or
 * not wholly): the board is then reloaded.
 */
export interface BoardChanges {
  /** A task of the project inserted or updated: its new row. */
  task: (event: 'INSERT' | 'UPDATE', row: ChangedRow) => boolean;
  /** A comment added to a task of the workspace. */
  comment: (taskId: string) => boolean;
  /**
   * A task of the workspace moved between columns, as its history says it (just after the task's
   * row): the columns' ids, null when a status is no longer there.
   */
  status: (taskId: string, from: string | null, to: string | null) => boolean;
}

/** A status entry of `task_history`: the columns a task left and entered (private.task_history_of_tasks). */
type StatusEntry = { from?: { id?: unknown } | null; to?: { id?: unknown } | null };

/** What `task_history` records that changes other cards than its own: parents, links, the trash. */
const STRUCTURE_HISTORY = 'kind=in.(parent,link_added,link_removed,deleted,restored)';

/**
 * The board's tasks, columns and labels, live; returns the other people on the board right now.
 * `known`: the workspace, and the cards and labels the board shows (deletes carry only their key).
 * `apply`: what the board applies itself; without it, every change reloads the board.
 */
export function useLiveBoard(
  projectId: string,
  me: Viewer,
  known: { workspaceId: string; taskIds: string[]; labelIds: string[] },
  apply?: BoardChanges,
): { others: Viewer[]; state: LiveState } {
  const [others, setOthers] = useState<Viewer[]>([]);
  const ids = useRef({ tasks: new Set<string>(), labels: new Set<string>() });
  ids.current = { tasks: new Set(known.taskIds), labels: new Set(known.labelIds) };
  const applying = useRef(apply);
  applying.current = apply;
  // A change the payload cannot carry whole (`errors`: too large) is reloaded.
  const row = (change: { new: ChangedRow; errors?: unknown }) => (change.errors ? null : change.new);
  const state = useLiveChannel(
    `board:${projectId}`,
    {
      private: true,
      presenceKey: me.id,
      onJoined: (channel) => void channel.track({ name: me.name }),
    },
    (channel, changed) =>
      onLabels(channel, known.workspaceId, () => ids.current.labels, changed)
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'tasks', filter: `project_id=eq.${projectId}` },
          (change) => {
            const task = change.eventType === 'DELETE' ? null : row(change);
            const event = change.eventType === 'INSERT' ? 'INSERT' : 'UPDATE';
            if (!task || !applying.current?.task(event, task)) changed();
          },
        )
        // Comments add to a card's count; one deleted (its key alone) is not followed.
        .on(
          'postgres_changes',
          {
            event: 'INSERT',
            schema: 'public',
            table: 'comments',
            filter: `workspace_id=eq.${known.workspaceId}`,
          },
          (change) => {
            const taskId = row(change)?.task_id;
            if (typeof taskId !== 'string' || !applying.current?.comment(taskId)) changed();
          },
        )
        // A task's move from one column to another, which its row does not say (the row has the new
        // column only): a filtered board needs it for a card it did not draw.
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'task_history', filter: 'kind=eq.status' },
          (change) => {
            const entry = row(change);
            if (!applying.current || entry?.workspace_id !== known.workspaceId) return;
            const { task_id: taskId, data } = entry as { task_id?: unknown; data?: StatusEntry };
            const id = (end: 'from' | 'to') => (typeof data?.[end]?.id === 'string' ? data[end].id : null);
            if (typeof taskId === 'string' && !applying.current.status(taskId, id('from'), id('to')))
              changed();
          },
        )
        // A parent, a link or the trash changes other cards' counts and flags (and a task put in the
        // trash is no longer one its readers see change).
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'task_history', filter: STRUCTURE_HISTORY },
          (change) => {
            if (change.new.workspace_id === known.workspaceId) changed();
          },
        )
        // Deletes carry only the key, so they cannot be filtered by project, and the board draws only
        // a window of each column: a deleted card it does not show still changes a column's count.
        // Any deleted task reloads the board (deletes are rare: admins only).
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'tasks' }, changed)
        // The columns themselves: a status added, renamed, recategorized or moved (a deleted one, like
        // a deleted task, carries only its key: any deleted status reloads the board).
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'project_statuses', filter: `project_id=eq.${projectId}` },
          changed,
        )
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'project_statuses' }, changed)
        // Labels put on the workspace's tasks, and its labels changed. A label taken off (a delete,
        // carrying only its key) counts when the card is one the board shows.
        .on(
          'postgres_changes',
          {
            event: 'INSERT',
            schema: 'public',
            table: 'task_labels',
            filter: `workspace_id=eq.${known.workspaceId}`,
          },
          changed,
        )
        .on(
          'postgres_changes',
          { event: 'DELETE', schema: 'public', table: 'task_labels' },
          ifShown(() => ids.current.tasks, 'task_id', changed),
        )
        .on('presence', { event: 'sync' }, () => {
          const state = channel.presenceState<{ name: string }>();
          setOthers(
            Object.entries(state)
              .filter(([id]) => id !== me.id)
              .map(([id, metas]) => ({ id, name: metas[0]?.name ?? 'Someone' }))
              .sort((a, b) => a.name.localeCompare(b.name)),
          );
        }),
  );
  return { others, state };
}
