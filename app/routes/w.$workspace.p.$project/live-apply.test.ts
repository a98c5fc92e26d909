import { describe, expect, it } from 'vitest';
import type { BoardStatus, Filters } from '../../utils/board.ts';
import { matchesFilters } from '../../utils/filter-match.ts';
import {
  applyComment,
  applyStatusChange,
  applyTaskRow,
  versionOf,
  type LiveBoard,
  type LiveContext,
  type TaskRow,
} from './live-apply.ts';
import type { BoardTask } from './use-moves.ts';

const statuses: BoardStatus[] = [
  { id: 'todo', name: 'To do', category: 'unstarted' },
  { id: 'doing', name: 'In progress', category: 'started' },
  { id: 'done', name: 'Done', category: 'completed' },
];
const context: LiveContext = { statuses, windows: {}, people: new Set(['ada']) };

const card = (n: number, status: string, position: number, extra: Partial<BoardTask> = {}): BoardTask => ({
  id: `t${String(n).padStart(3, '0')}`,
  number: n,
  title: `Task ${n}`,
  status,
  position,
  priority: 'none',
  due: null,
  assignee: null,
  version: 0,
  ...extra,
});

function boardOf(tasks: BoardTask[], counts?: Record<string, number>): LiveBoard {
  const all = Object.fromEntries(statuses.map((s) => [s.id, tasks.filter((t) => t.status === s.id).length]));
  return { tasks, counts: counts ?? all, totals: counts ?? all };
}

const row = (task: BoardTask, change: Partial<TaskRow> = {}): TaskRow => ({
  id: task.id,
  number: task.number,
  title: task.title,
  status_id: task.status,
  position: task.position,
  priority: task.priority,
  due_date: task.due,
  assignee_id: task.assignee,
  parent_id: null,
  deleted_at: null,
  description: '',
  ...change,
});

const order = (board: LiveBoard) => board.tasks.map((t) => `${t.status}:${t.number}`);

describe('applyTaskRow', () => {
  const [a, b, c] = [card(1, 'todo', 1024), card(2, 'todo', 2048), card(3, 'doing', 1024)];

  it('moves a card to its place in another column, counts following', () => {
    const board = boardOf([a, b, c]);
    const { board: next, reload } = applyTaskRow(
      board,
      'UPDATE',
      row(b, { status_id: 'doing', position: 512 }),
      context,
    );
    expect(reload).toBe(false);
    expect(order(next)).toEqual(['todo:1', 'doing:2', 'doing:3']);
    expect(next.counts).toEqual({ todo: 1, doing: 2, done: 0 });
    expect(next.totals).toEqual({ todo: 1, doing: 2, done: 0 });
  });

  it('updates a card’s title, priority, assignee, due date and checklist in place', () => {
    const change = row(a, {
      title: 'Renamed',
      priority: 'high',
      assignee_id: 'ada',
      due_date: '2026-12-01',
      description: '- [x] one\n- [ ] two',
    });
    const { board, reload } = applyTaskRow(boardOf([a, b, c]), 'UPDATE', change, context);
    expect(reload).toBe(false);
    expect(board.tasks[0]).toMatchObject({
      title: 'Renamed',
      priority: 'high',
      assignee: 'ada',
      due: '2026-12-01',
      checklist: { done: 1, total: 2 },
    });
  });

  it('adds a new card once, however often its row arrives', () => {
    const d = card(4, 'todo', 1536);
    const once = applyTaskRow(boardOf([a, b, c]), 'INSERT', row(d), context);
    const twice = applyTaskRow(once.board, 'INSERT', row(d), context);
    expect(once.reload).toBe(false);
    expect(order(twice.board)).toEqual(['todo:1', 'todo:4', 'todo:2', 'doing:3']);
    expect(twice.board.counts.todo).toBe(3);
  });

  it('leaves a card as it is for a row older than the card it draws, and applies a newer one', () => {
    // The echo of this page's own first move (back to the top of To do), heard after the board
    // loaded its second (to the bottom of In progress).
    const version = versionOf('2026-11-28T16:10:07.000200+00:00') ?? 0;
    const moved = { ...b, status: 'doing', position: 2048, version };
    const board = boardOf([a, c, moved]);
    const late = row(b, { position: 512, updated_at: '2026-11-28T16:10:07.000100+00:00' });
    expect(applyTaskRow(board, 'UPDATE', late, context)).toEqual({ board, reload: false });

    // Its own row again changes nothing; a newer one is applied, and the card takes its version.
    const again = applyTaskRow(
      board,
      'UPDATE',
      row(moved, { updated_at: '2026-11-28T16:10:07.0002+00' }),
      context,
    );
    expect(order(again.board)).toEqual(['todo:1', 'doing:3', 'doing:2']);
    const newer = applyTaskRow(
      board,
      'UPDATE',
      { ...late, updated_at: '2026-11-28T16:10:07.000201Z' },
      context,
    );
    expect(newer.reload).toBe(false);
    expect(order(newer.board)).toEqual(['todo:2', 'todo:1', 'doing:3']);
    expect(newer.board.tasks.find((t) => t.id === b.id)?.version).toBe(version + 1);
  });

  it('reads a version to the microsecond, whatever the zone it is written in', () => {
    const utc = versionOf('2026-11-28T16:10:07.123456+00:00');
    expect(utc).toBe(Date.UTC(2026, 10, 28, 16, 10, 7) * 1000 + 123456);
    expect(versionOf('2026-11-28 17:10:07.123456+01')).toBe(utc);
    expect(versionOf('2026-11-28T11:40:07.123456-0430')).toBe(utc);
    expect(versionOf('2026-11-28T16:10:07Z')).toBe(Date.UTC(2026, 10, 28, 16, 10, 7) * 1000);
    expect(versionOf('2026-11-28T16:10:07.5Z')).toBe(Date.UTC(2026, 10, 28, 16, 10, 7) * 1000 + 500000);
    for (const stamp of [undefined, null, 17, '', 'yesterday', '2026-11-28', '2026-13-45T99:99:99Z'])
      expect(versionOf(stamp), String(stamp)).toBeUndefined();
  });

  it('reloads for a card it does not draw, a filter that cannot tell, or an assignee it does not know', () => {
    const board = boardOf([a, b, c]);
    expect(applyTaskRow(board, 'UPDATE', row(card(9, 'todo', 1)), context).reload).toBe(true);
    expect(applyTaskRow(board, 'UPDATE', row(a), { ...context, matches: () => null }).reload).toBe(true);
    expect(applyTaskRow(board, 'UPDATE', row(a, { assignee_id: 'bob' }), context).reload).toBe(true);
  });

  it('reloads when a card is closed or opened that may block another, or counts toward a parent', () => {
    const blocked = card(5, 'todo', 4096, { blocked: true });
    const toDone = row(a, { status_id: 'done' });
    expect(applyTaskRow(boardOf([a, b, c]), 'UPDATE', toDone, context).reload).toBe(false);
    expect(applyTaskRow(boardOf([a, b, c, blocked]), 'UPDATE', toDone, context).reload).toBe(true);
    const done = card(6, 'done', 1);
    expect(applyTaskRow(boardOf([a, done]), 'UPDATE', row(done, { status_id: 'todo' }), context).reload).toBe(
      true,
    );
    const child = row(b, { status_id: 'doing', parent_id: a.id });
    expect(applyTaskRow(boardOf([a, b, c]), 'UPDATE', child, context).reload).toBe(false);
    expect(applyTaskRow(boardOf([a, b, c]), 'UPDATE', { ...child, status_id: 'done' }, context).reload).toBe(
      true,
    );
  });

  it('keeps a column’s window: a new card past its last drawn card of a longer column is left to a reload', () => {
    // "To do" draws 2 of its 5 cards (a window of 2 for the test's sake).
    const windows = { todo: 2 };
    const board = boardOf([a, b, c], { todo: 5, doing: 1, done: 0 });
    // Whether the 5 counted it already (a row written before the board subscribed) is not known.
    const late = applyTaskRow(board, 'INSERT', row(card(7, 'todo', 9999)), { ...context, windows });
    expect(late).toEqual({ board, reload: true });
    const early = applyTaskRow(board, 'INSERT', row(card(8, 'todo', 1)), { ...context, windows });
    expect(order(early.board)).toEqual(['todo:8', 'todo:1', 'doing:3']);
    // A card leaving it lets the next one into view, which only a reload has.
    const away = applyTaskRow(board, 'UPDATE', row(a, { status_id: 'doing', position: 1 }), {
      ...context,
      windows,
    });
    expect(order(away.board)).toEqual(['todo:2', 'doing:1', 'doing:3']);
    expect(away.reload).toBe(true);
  });
});

describe('applyTaskRow on a filtered board', () => {
  const filteredBy = (filters: Filters): LiveContext => ({
    ...context,
    matches: (task, status) =>
      matchesFilters(filters, task, status.category, { me: 'ada', today: '2026-11-28', projectKey: 'WEB' }),
  });
  const high = filteredBy({ priority: 'high' });
  // Drawn: the cards of high priority. Not drawn: b (To do) and d (Done).
  const [a, b, c, d] = [
    card(1, 'todo', 1024, { priority: 'high' }),
    card(2, 'todo', 2048),
    card(3, 'doing', 1024, { priority: 'high' }),
    card(4, 'done', 1024),
  ];
  const board: LiveBoard = {
    tasks: [a, c],
    counts: { todo: 1, doing: 1, done: 0 },
    totals: { todo: 2, doing: 1, done: 1 },
  };

  it('moves a matching card, its column’s matches and totals following', () => {
    const moved = applyTaskRow(board, 'UPDATE', row(a, { status_id: 'doing', position: 2048 }), high);
    expect(moved.reload).toBe(false);
    expect(order(moved.board)).toEqual(['doing:3', 'doing:1']);
    expect(moved.board.counts).toEqual({ todo: 0, doing: 2, done: 0 });
    expect(moved.board.totals).toEqual({ todo: 1, doing: 2, done: 1 });
  });

  it('takes away a card that stops matching; it still counts among all of its column’s', () => {
    const lowered = applyTaskRow(board, 'UPDATE', row(a, { priority: 'low' }), high);
    expect(lowered.reload).toBe(false);
    expect(order(lowered.board)).toEqual(['doing:3']);
    expect(lowered.board.counts).toEqual({ todo: 0, doing: 1, done: 0 });
    expect(lowered.board.totals).toEqual(board.totals);
    const closed = applyTaskRow(board, 'UPDATE', row(c, { priority: 'low', status_id: 'done' }), high);
    expect(closed.board.counts).toEqual({ todo: 1, doing: 0, done: 0 });
    expect(closed.board.totals).toEqual({ todo: 2, doing: 0, done: 2 });
  });

  it('draws a card that starts matching as if it kept its column, which its history corrects', () => {
    const raised = applyTaskRow(board, 'UPDATE', row(d, { priority: 'high' }), high);
    expect(raised).toMatchObject({ reload: false, columnAssumed: true });
    expect(order(raised.board)).toEqual(['todo:1', 'doing:3', 'done:4']);
    expect(raised.board.counts).toEqual({ todo: 1, doing: 1, done: 1 });
    expect(raised.board.totals).toEqual(board.totals);
    // It was in To do: its history's status entry moves it among the totals.
    const raisedAndMoved = applyTaskRow(
      board,
      'UPDATE',
      row(b, { priority: 'high', status_id: 'done' }),
      high,
    );
    const corrected = applyStatusChange(raisedAndMoved.board, 'todo', 'done', high);
    expect(corrected.reload).toBe(false);
    expect(order(corrected.board)).toEqual(['todo:1', 'doing:3', 'done:2']);
    expect(corrected.board.counts).toEqual({ todo: 1, doing: 1, done: 1 });
    expect(corrected.board.totals).toEqual({ todo: 1, doing: 1, done: 2 });
  });

  it('leaves the cards as they are for a card that neither matched nor matches', () => {
    const renamed = applyTaskRow(board, 'UPDATE', row(b, { title: 'Renamed' }), high);
    expect(renamed).toMatchObject({ reload: false, columnAssumed: true });
    expect(renamed.board.tasks).toEqual(board.tasks);
    expect(renamed.board.counts).toEqual(board.counts);
    expect(renamed.board.totals).toEqual(board.totals);
  });

  it('counts a new card among its column’s, and draws it when it matches', () => {
    const plain = applyTaskRow(board, 'INSERT', row(card(5, 'todo', 4096)), high);
    expect(plain.reload).toBe(false);
    expect(plain.board.tasks).toEqual(board.tasks);
    expect(plain.board.totals.todo).toBe(3);
    expect(plain.board.counts.todo).toBe(1);
    const urgent = applyTaskRow(board, 'INSERT', row(card(6, 'todo', 4096, { priority: 'high' })), high);
    expect(order(urgent.board)).toEqual(['todo:1', 'todo:6', 'doing:3']);
    expect(urgent.board.counts.todo).toBe(2);
    expect(urgent.board.totals.todo).toBe(3);
  });

  it('reloads for a card it does not draw while a column has matching cards beyond its window', () => {
    const longer = { ...board, counts: { ...board.counts, doing: 2 } };
    expect(applyTaskRow(longer, 'UPDATE', row(d, { priority: 'high' }), high).reload).toBe(true);
  });

  it('reads overdue by the column the card is in now', () => {
    const overdue = filteredBy({ due: 'overdue' });
    const late = card(7, 'todo', 1, { due: '2026-11-01' });
    const lateBoard: LiveBoard = {
      tasks: [late],
      counts: { todo: 1, doing: 0, done: 0 },
      totals: board.totals,
    };
    const finished = applyTaskRow(lateBoard, 'UPDATE', row(late, { status_id: 'done' }), overdue);
    expect(finished.board.tasks).toEqual([]);
    expect(finished.board.counts).toEqual({ todo: 0, doing: 0, done: 0 });
  });

  it('decides a label filter by a drawn card’s labels, and reloads for a card it does not draw', () => {
    const design = filteredBy({ label: ['design'] });
    const labelled = card(8, 'todo', 1, { labels: [{ id: 'l1', name: 'Design', color: 'blue' }] });
    const labelBoard: LiveBoard = {
      tasks: [labelled],
      counts: { todo: 1, doing: 0, done: 0 },
      totals: board.totals,
    };
    const moved = applyTaskRow(labelBoard, 'UPDATE', row(labelled, { status_id: 'doing' }), design);
    expect(moved.reload).toBe(false);
    expect(order(moved.board)).toEqual(['doing:8']);
    expect(applyTaskRow(labelBoard, 'UPDATE', row(b), design).reload).toBe(true);
    expect(applyTaskRow(labelBoard, 'INSERT', row(card(9, 'todo', 1)), design).reload).toBe(true);
  });

  it('reloads when a card its history moved opened, or closed while a card is blocked', () => {
    expect(applyStatusChange(board, 'done', 'todo', high).reload).toBe(true);
    expect(applyStatusChange(board, 'todo', 'done', high).reload).toBe(false);
    const blocked = { ...board, tasks: [...board.tasks, card(9, 'doing', 4096, { blocked: true })] };
    expect(applyStatusChange(blocked, 'todo', 'done', high).reload).toBe(true);
    expect(applyStatusChange(board, 'todo', 'gone', high).reload).toBe(true);
  });
});

describe('applyComment', () => {
  it('counts one more comment on a card it draws, and ignores the others', () => {
    const board = boardOf([card(1, 'todo', 1), card(2, 'todo', 2, { comments: 2 })]);
    expect(applyComment(board, 't002').tasks[1]?.comments).toBe(3);
    expect(applyComment(board, 't001').tasks[0]?.comments).toBe(1);
    expect(applyComment(board, 'other')).toBe(board);
  });
});
