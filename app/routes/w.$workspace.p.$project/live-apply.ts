// A change another person made, applied to the board the browser holds, when the change itself says
// all there is to know: Realtime sends a task's whole row (as the reader's RLS lets them see it), so
// a card moved, renamed, re-prioritised, reassigned or given a due date, and a new card, land where
// `board_page` would put them, as Linear applies its sync locally. What the row does not say — a
// card beyond a column's window, a label filter, a parent's or a blocked card's counts — is left to
// one reload of the board (`reload: true`), which the caller coalesces. A filtered board decides by
// board_content's rules (filter-match.ts) whether a card comes in, stays or goes.
import { checklistProgress } from '../../utils/markdown-rules.ts';
import { COLUMN_WINDOW, type BoardStatus, type Status, type Windows } from '../../utils/board.ts';
import type { FilterableTask } from '../../utils/filter-match.ts';
import type { BoardTask } from './use-moves.ts';

/** The part of the board's data a change can alter. */
export interface LiveBoard {
  /** Board order: column by column, each top to bottom (by position, then id). */
  tasks: BoardTask[];
  /** Cards per column that match the filters (all of them, unfiltered). */
  counts: Record<Status, number>;
  /** All cards per column. */
  totals: Record<Status, number>;
}

/** What the board needs to know to place a card as `board_page` does. */
export interface LiveContext {
  statuses: BoardStatus[];
  /** The columns' windows from the address; a column shows `COLUMN_WINDOW` cards without one. */
  windows: Windows;
  /**
   * The board's filters as a rule for one card in a column (filter-match.ts): whether it matches, or
   * null when what is known of the card cannot tell. None on a board without filters.
   */
  matches?: (card: FilterableTask, status: BoardStatus) => boolean | null;
  /** The workspace's members the board knows (an assignee's face). */
  people: Set<string>;
}

/** A task's row as Realtime sends it: the columns of `public.tasks` the reader may select. */
export interface TaskRow {
  id: string;
  number?: number;
  title?: string;
  status_id?: string;
  position?: number | string;
  priority?: BoardTask['priority'];
  due_date?: string | null;
  assignee_id?: string | null;
  parent_id?: string | null;
  deleted_at?: string | null;
  /** Left out of an UPDATE when unchanged and stored out of line (TOAST). */
  description?: string;
  /** The row's version (`versionOf`): every write of it makes it later. */
  updated_at?: string;
}

export interface Applied {
  board: LiveBoard;
  /** The board cannot be sure it shows what a reload would: reload it. */
  reload: boolean;
  /**
   * A filtered board placed a card it did not draw as if it stayed in its column, which the row does
   * not say: the status entry of the task's history, which follows the row, says otherwise when it
   * moved (`applyStatusChange`).
   */
  columnAssumed?: boolean;
}

/**
 * A task inserted or updated: the card placed in the browser's copy of the board. Returns the board
 * as far as the row tells it, and whether a reload must still confirm the rest.
 *
 * On a filtered board a card drawn matched the filters; one not drawn did not, when every column
 * draws all its matching cards. The row says whether it matches now (its labels are the drawn
 * card's: a row does not change them). Counts are the matching cards, totals all of a column's.
 */
export function applyTaskRow(
  board: LiveBoard,
  event: 'INSERT' | 'UPDATE',
  row: TaskRow,
  context: LiveContext,
): Applied {
  const status = context.statuses.find((s) => s.id === row.status_id);
  const position = Number(row.position);
  if (!status || row.title === undefined || row.position === undefined) return reload(board);
  if (!Number.isFinite(position) || row.deleted_at) return reload(board);
  const old = board.tasks.find((t) => t.id === row.id);
  // The card as it was before the one drawn: a change the board has already moved past (the echo of
  // this page's own earlier move, say, heard after the board loaded the later one).
  const version = versionOf(row.updated_at);
  if (old && version !== undefined && version < old.version) return { board, reload: false };
  const drawn = (id: Status) => board.tasks.filter((t) => t.status === id && t.id !== row.id);
  const { matches } = context;
  // A card the board does not draw changed: which column it left (a count) is not known. A filtered
  // board takes it to have kept its column, if no column has matching cards beyond its window.
  const columnAssumed = !old && event === 'UPDATE';
  if (columnAssumed && !matches) return reload(board);
  if (columnAssumed && context.statuses.some((s) => (board.counts[s.id] ?? 0) > drawn(s.id).length))
    return reload(board);
  if (!old && row.number === undefined) return reload(board);
  const oldStatus = context.statuses.find((s) => s.id === old?.status);
  let confirm = false;
  // Other cards' flags and counts follow from this one's status: the cards it blocks, its parent's
  // sub-tasks. The row names neither the cards it blocks nor (for a parent changed) its old parent.
  // (A card assumed to keep its column is checked when its history says it moved.)
  if (old ? closed(oldStatus) && !closed(status) : false) confirm = true;
  if (old && !closed(oldStatus) && closed(status) && board.tasks.some((t) => t.blocked)) confirm = true;
  const parentDrawn = row.parent_id ? board.tasks.some((t) => t.id === row.parent_id) : false;
  if (parentDrawn && (!old || countsToward(oldStatus) !== countsToward(status))) confirm = true;
  if (row.assignee_id && !context.people.has(row.assignee_id)) confirm = true;

  const card: BoardTask = {
    ...(old ?? { id: row.id, number: row.number ?? 0 }),
    version: version ?? old?.version ?? 0,
    title: row.title,
    status: status.id,
    position,
    priority: row.priority ?? old?.priority ?? 'none',
    due: row.due_date ?? null,
    assignee: row.assignee_id ?? null,
  };
  // An unchanged description stored out of line is left out of an UPDATE: its checklist stands.
  const checklist = row.description === undefined ? old?.checklist : checklistOf(row.description);
  if (checklist) card.checklist = checklist;
  else delete card.checklist;

  // Whether it matches the filters now (a drawn card's labels are known: none when it shows none).
  const matching = matches
    ? matches({ ...card, labels: old ? (old.labels ?? []) : undefined }, status)
    : true;
  if (matching === null) return reload(board);

  const counts = { ...board.counts };
  const totals = { ...board.totals };
  if (old) {
    counts[old.status] = (counts[old.status] ?? 0) - 1;
    totals[old.status] = (totals[old.status] ?? 0) - 1;
    // It left a window of a longer column: the next card comes into view, which the board has not.
    const left = !matching || old.status !== status.id;
    if (left && (board.counts[old.status] ?? 0) > drawn(old.status).length + 1) confirm = true;
  }
  if (matching) counts[status.id] = (counts[status.id] ?? 0) + 1;
  if (!columnAssumed) totals[status.id] = (totals[status.id] ?? 0) + 1;

  // Its place in its column; the column's window keeps its size.
  const size = context.windows[status.id] ?? COLUMN_WINDOW;
  const column = drawn(status.id);
  const notDrawn = (board.counts[status.id] ?? 0) - (old?.status === status.id ? 1 : 0) - column.length;
  let at = column.findIndex((t) => before(card, t));
  if (at === -1) at = column.length;
  let placed = matching ? [...column.slice(0, at), card, ...column.slice(at)] : column;
  if (matching && at === column.length && notDrawn > 0) {
    // Below the last card drawn of a longer column: past the window when that is full; else it is
    // drawn only if it comes before the first card not drawn, which the board has not. A card the
    // board has not drawn past a full window may be one its load counted already (Realtime can
    // deliver a row written before the board subscribed): only a reload counts it right.
    if (!old) return reload(board);
    if (column.length >= size) placed = column;
    else confirm = true;
  }
  placed = placed.slice(0, size);

  const tasks = context.statuses.flatMap((s) => (s.id === status.id ? placed : drawn(s.id)));
  return { board: { tasks, counts, totals }, reload: confirm, ...(columnAssumed ? { columnAssumed } : {}) };
}

/**
 * The status entry of the history of a card placed as if it kept its column (`columnAssumed`): it
 * moved `from` one column `to` another. It matched no filter before, so only the totals change —
 * and the cards it blocks, if it opened or closed, which only a reload has.
 */
export function applyStatusChange(board: LiveBoard, from: Status, to: Status, context: LiveContext): Applied {
  const was = context.statuses.find((s) => s.id === from);
  const is = context.statuses.find((s) => s.id === to);
  if (!was || !is) return reload(board);
  if (from === to) return { board, reload: false };
  const totals = { ...board.totals };
  totals[from] = (totals[from] ?? 0) - 1;
  totals[to] = (totals[to] ?? 0) + 1;
  const opened = closed(was) && !closed(is);
  const unblocks = !closed(was) && closed(is) && board.tasks.some((t) => t.blocked);
  return { board: { ...board, totals }, reload: opened || unblocks };
}

const reload = (board: LiveBoard): Applied => ({ board, reload: true });

/** A completed or canceled card unblocks what it blocks. */
const closed = (status: BoardStatus | undefined) =>
  status?.category === 'completed' || status?.category === 'canceled';

/** How a sub-task counts toward its parent's "done of total": done, counted, or not at all. */
const countsToward = (status: BoardStatus | undefined) =>
  status?.category === 'completed' ? 'done' : status?.category === 'canceled' ? 'none' : 'open';

/** Board order within a column: by position, then by id (`order by t.position, t.id`). */
function before(a: BoardTask, b: BoardTask): boolean {
  return a.position < b.position || (a.position === b.position && a.id < b.id);
}

/** `private.checklist_progress`: the description's checklist, none without an item. */
function checklistOf(description: string): { done: number; total: number } | undefined {
  const progress = checklistProgress(description);
  return progress.total > 0 ? progress : undefined;
}

/**
 * A task's version: its `updated_at` in microseconds since 1970 (which Date would round to
 * milliseconds), as board_content and Realtime print it ("2026-11-28T16:10:07.123456+00:00"). The
 * database makes every write of a row later than the last (20261202100000_task_versions.sql).
 * Undefined for anything else.
 */
export function versionOf(stamp: unknown): number | undefined {
  if (typeof stamp !== 'string') return undefined;
  const parts = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)$/.exec(
    stamp,
  );
  if (!parts) return undefined;
  const [, date, time, fraction = '', zone = ''] = parts;
  const offset = zone === 'Z' ? zone : `${zone.slice(0, 3)}:${zone.slice(3).replace(':', '').padEnd(2, '0')}`;
  const ms = Date.parse(`${date}T${time}${offset}`);
  return Number.isNaN(ms) ? undefined : ms * 1000 + Number(fraction.padEnd(6, '0'));
}

/** A comment added to a card the board draws: one more on its count. */
export function applyComment(board: LiveBoard, taskId: string): LiveBoard {
  if (!board.tasks.some((t) => t.id === taskId)) return board;
  return {
    ...board,
    tasks: board.tasks.map((t) => (t.id === taskId ? { ...t, comments: (t.comments ?? 0) + 1 } : t)),
  };
}
