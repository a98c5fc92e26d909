import { useFetchers, useNavigation, useRevalidator, useSearchParams } from '@remix-run/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveBoard, type BoardChanges, type ChangedRow, type Viewer } from '~/components/live.tsx';
import { readWindows, type BoardStatus, type Status } from '~/utils/board.ts';
import { applyComment, applyTaskRow, type LiveBoard, type LiveContext, type TaskRow } from './live-apply.ts';
import type { BoardTask } from './use-moves.ts';

interface Loaded {
  project: { id: string };
  statuses: BoardStatus[];
  tasks: BoardTask[];
  counts: Record<Status, number>;
  totals: Record<Status, number>;
  people: Array<{ id: string }>;
  labels: Array<{ id: string }>;
  filtered: boolean;
  workspaceId: string;
  me: Viewer;
}

/**
 * The board as loaded, with the changes others made since applied to it (live-apply.ts), and who
 * else is on it. A change the browser cannot apply whole reloads the board (live.tsx gathers them).
 *
 * A load under way may have read the database before or after a change that arrives meanwhile: the
 * cards' changes are applied again to its answer (applying a row twice places it once), and a
 * comment then reloads the board rather than count one twice.
 */
export function useLiveTasks(loaded: Loaded) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const revalidator = useRevalidator();
  const loading =
    navigation.state !== 'idle' || revalidator.state !== 'idle' || fetchers.some((f) => f.state !== 'idle');
  const { tasks, counts, totals, statuses, people } = loaded;
  const base = useMemo<LiveBoard>(() => ({ tasks, counts, totals }), [tasks, counts, totals]);
  const context: LiveContext = {
    statuses,
    windows: readWindows(searchParams),
    filtered: loaded.filtered,
    people: new Set(people.map((p) => p.id)),
  };

  const replay = useRef<Array<{ event: 'INSERT' | 'UPDATE'; row: TaskRow }>>([]);
  const [live, setLive] = useState({ from: base, board: base });
  let current = live;
  if (live.from !== base) {
    let board = base;
    for (const { event, row } of replay.current) board = applyTaskRow(board, event, row, context).board;
    current = { from: base, board };
    setLive(current);
  }
  const latest = useRef({ current, context, loading });
  latest.current = { current, context, loading };
  useEffect(() => {
    if (!loading) replay.current = [];
  }, [loading]);

  const apply = useMemo<BoardChanges>(() => {
    const update = (board: LiveBoard) => {
      const next = { from: latest.current.current.from, board };
      latest.current.current = next;
      setLive(next);
    };
    return {
      task: (event: 'INSERT' | 'UPDATE', changed: ChangedRow) => {
        const row = changed as unknown as TaskRow;
        const { board, reload } = applyTaskRow(
          latest.current.current.board,
          event,
          row,
          latest.current.context,
        );
        if (latest.current.loading) replay.current.push({ event, row });
        update(board);
        return !reload;
      },
      comment: (taskId: string) => {
        if (latest.current.loading) return false;
        update(applyComment(latest.current.current.board, taskId));
        return true;
      },
    };
  }, []);

  const { others, state } = useLiveBoard(
    loaded.project.id,
    loaded.me,
    {
      workspaceId: loaded.workspaceId,
      taskIds: current.board.tasks.map((t) => t.id),
      labelIds: loaded.labels.map((l) => l.id),
    },
    apply,
  );
  return { board: current.board, others, state };
}
