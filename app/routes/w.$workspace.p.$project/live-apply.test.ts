import { describe, expect, it } from 'vitest';
import type { BoardStatus } from '../../utils/board.ts';
import { applyComment, applyTaskRow, type LiveBoard, type LiveContext, type TaskRow } from './live-apply.ts';
import type { BoardTask } from './use-moves.ts';

const statuses: BoardStatus[] = [
  { id: 'todo', name: 'To do', category: 'unstarted' },
  { id: 'doing', name: 'In progress', category: 'started' },
  { id: 'done', name: 'Done', category: 'completed' },
];
const context: LiveContext = { statuses, windows: {}, filtered: false, people: new Set(['ada']) };

const card = (n: number, status: string, position: number, extra: Partial<BoardTask> = {}): BoardTask => ({
  id: `t${String(n).padStart(3, '0')}`,
  number: n,
  title: `Task ${n}`,
  status,
  position,
  priority: 'none',
  due: null,
  assignee: null,
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

  it('reloads for a card it does not draw, a filtered board, or an assignee it does not know', () => {
    const board = boardOf([a, b, c]);
    expect(applyTaskRow(board, 'UPDATE', row(card(9, 'todo', 1)), context).reload).toBe(true);
    expect(applyTaskRow(board, 'UPDATE', row(a), { ...context, filtered: true }).reload).toBe(true);
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

  it('keeps a column’s window: a card past its last drawn card of a longer column is counted, not drawn', () => {
    // "To do" draws 2 of its 5 cards (a window of 2 for the test's sake).
    const windows = { todo: 2 };
    const board = boardOf([a, b, c], { todo: 5, doing: 1, done: 0 });
    const late = applyTaskRow(board, 'INSERT', row(card(7, 'todo', 9999)), { ...context, windows });
    expect(late.reload).toBe(false);
    expect(order(late.board)).toEqual(['todo:1', 'todo:2', 'doing:3']);
    expect(late.board.counts.todo).toBe(6);
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

describe('applyComment', () => {
  it('counts one more comment on a card it draws, and ignores the others', () => {
    const board = boardOf([card(1, 'todo', 1), card(2, 'todo', 2, { comments: 2 })]);
    expect(applyComment(board, 't002').tasks[1]?.comments).toBe(3);
    expect(applyComment(board, 't001').tasks[0]?.comments).toBe(1);
    expect(applyComment(board, 'other')).toBe(board);
  });
});
