import { useEffect, useRef, useState } from 'react';
import { moveTo, type BoardStatus, type Status } from '~/utils/board.ts';
import { taskRef } from '~/utils/projects.ts';
import { useMoves, type BoardTask } from './use-moves.ts';

/**
 * The board's cards with every move being saved already applied, and the one way to move a card:
 * drag and drop, the keys and the card menu all call `place`, which queues the move (use-moves.ts)
 * and says where the card went to screen readers.
 */
export function usePlacement(saved: BoardTask[], projectKey: string, statuses: BoardStatus[]) {
  const { tasks, enqueue, busy } = useMoves(saved);
  // Handlers read the board as last drawn, never one captured by an older render.
  const latest = useRef(tasks);
  latest.current = tasks;
  const [announcement, setAnnouncement] = useState('');
  const [focusTask, keepFocusOn] = useState<string | null>(null);

  // A card moved by keyboard is a new element in its new column: give it focus back, when the focus
  // was lost with the old element. Not when it is somewhere else: a menu opened since, or a field.
  useEffect(() => {
    if (!focusTask) return;
    const handle = document.getElementById(`handle-${focusTask}`);
    const lost = !document.activeElement || document.activeElement === document.body;
    if (handle && lost) handle.focus();
  }, [focusTask, tasks]);

  const place = (taskId: string, status: Status, index: number) => {
    const tasks = latest.current;
    const task = tasks.find((t) => t.id === taskId);
    if (!task) return;
    const column = tasks.filter((t) => t.status === status && t.id !== taskId);
    const at = Math.max(0, Math.min(index, column.length));
    const current = tasks.filter((t) => t.status === status).findIndex((t) => t.id === taskId);
    if (task.status === status && current === at) return;
    enqueue(moveTo(tasks, taskId, status, at));
    setAnnouncement(
      `Moved ${taskRef(projectKey, task.number)} to ${statuses.find((s) => s.id === status)?.name ?? 'another column'}, position ${at + 1} of ${column.length + 1}.`,
    );
  };

  return { tasks, busy, latest, place, announcement, keepFocusOn };
}

export type Placement = ReturnType<typeof usePlacement>;
