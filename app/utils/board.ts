// What a move does to the board, computed in the browser while the server is still saving it: the
// same rules as the move action and `move_task`, so the optimistic board and the saved one agree.
import { MoveTaskSchema, STATUS_CATEGORY_VALUES, TASK_PRIORITIES } from './workspace-schemas.ts';
import { isUuid } from './uuid.ts';

/** A status's id: a column of the board. */
export type Status = string;

/** Linear's categories: what a status means, whatever its name. */
export const STATUS_CATEGORIES = STATUS_CATEGORY_VALUES;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

/** One of a project's statuses: a column of its board. */
export interface BoardStatus {
  id: string;
  name: string;
  category: StatusCategory;
}

/** Each category as the product names it (the overview's summary, the settings' choices). */
export const CATEGORY_LABELS: Record<StatusCategory, string> = {
  backlog: 'Backlog',
  unstarted: 'To do',
  started: 'In progress',
  completed: 'Done',
  canceled: 'Canceled',
};

/** Open work: the overview's counts and "My tasks". */
export const isOpenCategory = (category: StatusCategory) =>
  category === 'backlog' || category === 'unstarted' || category === 'started';

/** A completed or canceled task's due date is history, never a warning. */
export const canBeOverdue = isOpenCategory;

export interface Move {
  taskId: string;
  status: Status;
  /** Land directly above this task (same column). */
  beforeTaskId?: string;
  /** Land directly below this task (same column). */
  afterTaskId?: string;
  /** One step within its own column. */
  direction?: 'up' | 'down';
}

/**
 * The move a submitted form describes, or null when it is not a move or not a valid one. The move
 * action and the board's optimistic copy both read moves through this, with one schema.
 */
export function readMove(formData: FormData | undefined): Move | null {
  if (!formData || formData.get('intent') !== 'move') return null;
  // Empty fields are fields not sent (a form's hidden inputs may be blank).
  const fields = Object.fromEntries(
    [...formData.entries()].filter(([name, value]) => MOVE_FIELDS.has(name) && value !== ''),
  );
  const move = MoveTaskSchema.safeParse(fields);
  return move.success ? move.data : null;
}

const MOVE_FIELDS = new Set(['taskId', 'status', 'direction', 'beforeTaskId', 'afterTaskId']);

/** The form fields of a move, for `submit` (marked as sent by script, so the answer is data). */
export function moveFormData(move: Move): FormData {
  const formData = new FormData();
  formData.set('intent', 'move');
  formData.set('via', 'script');
  formData.set('taskId', move.taskId);
  formData.set('status', move.status);
  if (move.beforeTaskId) formData.set('beforeTaskId', move.beforeTaskId);
  if (move.afterTaskId) formData.set('afterTaskId', move.afterTaskId);
  if (move.direction) formData.set('direction', move.direction);
  return formData;
}

/**
 * The tasks (in board order: by position, columns interleaved) after a move. A move that cannot
 * apply — an unknown task, a neighbour that is not in the target column — leaves them as they are.
 */
export function applyMove<T extends { id: string; status: Status }>(tasks: T[], move: Move): T[] {
  const from = tasks.findIndex((t) => t.id === move.taskId);
  const task = tasks[from];
  if (!task) return tasks;

  if (move.direction && move.status === task.status) {
    const column = tasks.filter((t) => t.status === task.status);
    const index = column.findIndex((t) => t.id === task.id);
    const neighbour = column[move.direction === 'up' ? index - 1 : index + 1];
    if (!neighbour) return tasks;
    // Tasks between the two belong to other columns, so swapping the pair reorders just this column.
    const to = tasks.indexOf(neighbour);
    const next = [...tasks];
    next[from] = neighbour;
    next[to] = task;
    return next;
  }

  // No direction and no neighbour within its own column: the move action leaves it where it is.
  if (!move.beforeTaskId && !move.afterTaskId && move.status === task.status) return tasks;
  const rest = tasks.filter((t) => t.id !== task.id);
  const moved = { ...task, status: move.status };
  const inColumn = (id: string | undefined) =>
    id ? rest.findIndex((t) => t.id === id && t.status === move.status) : -1;
  let at: number;
  if (move.beforeTaskId) {
    at = inColumn(move.beforeTaskId);
    if (at === -1) return tasks;
  } else if (move.afterTaskId) {
    at = inColumn(move.afterTaskId);
    if (at === -1) return tasks;
    at += 1;
  } else {
    // No neighbour named: the bottom of the column, as `move_task` places it.
    const last = rest.findLastIndex((t) => t.status === move.status);
    at = last === -1 ? rest.length : last + 1;
  }
  return [...rest.slice(0, at), moved, ...rest.slice(at)];
}

/**
 * The move that puts a task at `index` of a column (counted without the task itself), naming the
 * neighbours `move_task` needs.
 */
export function moveTo<T extends { id: string; status: Status }>(
  tasks: T[],
  taskId: string,
  status: Status,
  index: number,
): Move {
  const column = tasks.filter((t) => t.status === status && t.id !== taskId);
  const clamped = Math.max(0, Math.min(index, column.length));
  return {
    taskId,
    status,
    afterTaskId: column[clamped - 1]?.id,
    beforeTaskId: column[clamped]?.id,
  };
}

/** How many cards a column shows before its "Show more" link (SPEC §9). */
export const COLUMN_WINDOW = 50;
/** The most one column can be asked to show at once. */
export const MAX_COLUMN_WINDOW = 10_000;

export type Windows = Record<Status, number>;

/**
 * How many cards each column shows beyond the first `COLUMN_WINDOW`, from the board's address:
 * `?<status id>=100` shows the first 100 of that column. Parameters that are not a status id, or
 * whose value is malformed, are no window; the rest are rounded into range.
 */
export function readWindows(params: URLSearchParams): Windows {
  const windows: Windows = {};
  for (const [name, raw] of params) {
    if (!isUuid(name) || !/^\d{1,6}$/.test(raw)) continue;
    windows[name.toLowerCase()] = Math.min(MAX_COLUMN_WINDOW, Math.max(COLUMN_WINDOW, Number(raw)));
  }
  return windows;
}

/**
 * The windows longer than the first `COLUMN_WINDOW` cards, as board_page is asked for them: a board
 * asked for with none is its plain address, which the database keeps built (private.board_cache).
 */
export function longerWindows(windows: Windows): Windows {
  return Object.fromEntries(Object.entries(windows).filter(([, size]) => size > COLUMN_WINDOW));
}

/** The board's query string with one column showing `count` cards (other parameters kept). */
export function showMoreSearch(params: URLSearchParams, status: Status, count: number): string {
  const next = new URLSearchParams(params);
  next.set(status, String(count));
  return `?${next.toString()}`;
}

export type Priority = (typeof TASK_PRIORITIES)[number];

/**
 * The board's filters, as its address says them
 * (`?assignee=me&priority=high&due=overdue&q=logo&label=bug&label=design`).
 */
export interface Filters {
  /** 'me', 'none' (unassigned) or a member's id. */
  assignee?: string;
  priority?: Priority;
  /** 'overdue': before today and not completed or canceled; 'week': due today or in the six days after. */
  due?: 'overdue' | 'week';
  /** Words in the title, or a task's number. */
  q?: string;
  /** Label names, any letter case: a task with any of them matches. */
  label?: string[];
}

export const FILTER_PARAMS = ['assignee', 'priority', 'due', 'q', 'label'] as const;
/** The longest text filter kept (longer text is cut, not refused: it is a search box). */
export const MAX_FILTER_TEXT = 100;
/** The most label names one board filter takes (a workspace has at most 200 labels). */
export const MAX_FILTER_LABELS = 200;

/** The filters of a board's address; values it does not know are no filter at all. */
export function readFilters(params: URLSearchParams): Filters {
  const filters: Filters = {};
  const assignee = params.get('assignee') ?? '';
  if (assignee === 'me' || assignee === 'none' || isUuid(assignee)) filters.assignee = assignee.toLowerCase();
  const priority = params.get('priority') ?? '';
  const known = TASK_PRIORITIES.find((p) => p === priority);
  if (known) filters.priority = known;
  const due = params.get('due');
  if (due === 'overdue' || due === 'week') filters.due = due;
  const q = (params.get('q') ?? '').trim().slice(0, MAX_FILTER_TEXT);
  if (q) filters.q = q;
  // Each name once, whatever its letter case; names longer than a label's 30 characters match none.
  const labels = new Map<string, string>();
  for (const raw of params.getAll('label')) {
    const name = raw.trim();
    if (name && name.length <= 30 && !labels.has(name.toLowerCase())) labels.set(name.toLowerCase(), name);
  }
  if (labels.size > 0) filters.label = [...labels.values()].slice(0, MAX_FILTER_LABELS);
  return filters;
}

export const isFiltered = (filters: Filters) => Object.keys(filters).length > 0;

/** The board's query string without its filters: the column windows (and anything else) kept. */
export function clearFiltersSearch(params: URLSearchParams): string {
  const next = new URLSearchParams(params);
  for (const name of FILTER_PARAMS) next.delete(name);
  return next.size > 0 ? `?${next.toString()}` : '?';
}
