import { useFetchers, useNavigation, useRevalidator, useSearchParams } from '@remix-run/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveBoard, type BoardChanges, type ChangedRow, type Viewer } from '~/components/live-board.ts';
import { isFiltered, readWindows, type BoardStatus, type Filters, type Status } from '~/utils/board.ts';
import { matchesFilters } from '~/utils/filter-match.ts';
import {
  applyComment,
  applyStatusChange,
  applyTaskRow,
  type LiveBoard,
  type LiveContext,
  type TaskRow,
} from './live-apply.ts';
import type { BoardTask } from './use-moves.ts';

interface Loaded {
  project: { id: string; key: string };
  statuses: BoardStatus[];
  tasks: BoardTask[];
  counts: Record<Status, number>;
  totals: Record<Status, number>;
  people: Array<{ id: string }>;
  labels: Array<{ id: string }>;
  filters: Filters;
  /** The reader's date the board was loaded for: the due-date filters' today. */
  today: string;
  workspaceId: string;
  me: Viewer;
}

/**
 * The board as loaded, with the changes others made since applied to it (live-apply.ts), and who
 * else is on it. A change the browser cannot apply whole reloads the board (live.tsx gathers them).
 *
 * A change may arrive after the board has moved past it: this page's own moves come back through
 * Realtime too, and the echo of an earlier move can land after a later one, or after the load that
 * follows them. Each card carries its row's version, and an older row is not applied.
 *
 * A load under way may have read the database before or after a change that arrives meanwhile: the
 * cards' changes are applied again to its answer (a row it already has, or an older one, changes
 * nothing), and a comment then reloads the board rather than count one twice. A filtered board's cards come and go
 * with a change, so a change heard while its load is under way reloads it once more after that.
 */
export function useLiveTasks(loaded: Loaded) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const revalidator = useRevalidator();
  const loading =
    navigation.state !== 'idle' || revalidator.state !== 'idle' || fetchers.some((f) => f.state !== 'idle');
  const { tasks, counts, totals, statuses, people, filters } = loaded;
  const base = useMemo<LiveBoard>(() => ({ tasks, counts, totals }), [tasks, counts, totals]);
  const scope = { me: loaded.me.id, today: loaded.today, projectKey: loaded.project.key };
  const context: LiveContext = {
    statuses,
    windows: readWindows(searchParams),
    ...(isFiltered(filters)
      ? { matches: (card, status) => matchesFilters(filters, card, status.category, scope) }
      : {}),
    people: new Set(people.map((p) => p.id)),
  };

  const replay = useRef<Array<{ event: 'INSERT' | 'UPDATE'; row: TaskRow }>>([]);
  // Cards placed as if they kept their column (live-apply.ts), until their history says they moved.
  const assumed = useRef(new Set<string>());
  // Changes heard while the board was unfiltered that a filtered answer cannot replay (a new
  // filter's load, say): it is loaded again.
  const stale = useRef(false);
  const [live, setLive] = useState({ from: base, board: base });
  let current = live;
  if (live.from !== base) {
    let board = base;
    if (context.matches) stale.current ||= replay.current.length > 0;
    else for (const { event, row } of replay.current) board = applyTaskRow(board, event, row, context).board;
    current = { from: base, board };
    setLive(current);
    // A load begun after such a card's change has its column (one begun before, none was assumed).
    assumed.current.clear();
  }
  const latest = useRef({ current, context, loading });
  latest.current = { current, context, loading };
  const { revalidate } = revalidator;
  useEffect(() => {
    if (loading) return;
    replay.current = [];
    if (!stale.current) return;
    stale.current = false;
    revalidate();
  }, [loading, revalidate]);

  const apply = useMemo<BoardChanges>(() => {
    const update = (board: LiveBoard) => {
      const next = { from: latest.current.current.from, board };
      latest.current.current = next;
      setLive(next);
    };
    return {
      task: (event: 'INSERT' | 'UPDATE', changed: ChangedRow) => {
        const row = changed as unknown as TaskRow;
        const now = latest.current;
        if (now.loading && now.context.matches) {
          assumed.current.delete(row.id);
          return false;
        }
        const { board, reload, columnAssumed } = applyTaskRow(now.current.board, event, row, now.context);
        if (columnAssumed && !reload) assumed.current.add(row.id);
        else assumed.current.delete(row.id);
        if (now.loading) replay.current.push({ event, row });
        update(board);
        return !reload;
      },
      status: (taskId: string, from: string | null, to: string | null) => {
        if (!assumed.current.delete(taskId)) return true;
        if (from === null || to === null) return false;
        const { board, reload } = applyStatusChange(
          latest.current.current.board,
          from,
          to,
          latest.current.context,
        );
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
