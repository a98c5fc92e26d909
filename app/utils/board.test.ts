import { describe, expect, it } from 'vitest';
import {
  applyMove,
  canBeOverdue,
  clearFiltersSearch,
  COLUMN_WINDOW,
  isFiltered,
  isOpenCategory,
  readFilters,
  MAX_COLUMN_WINDOW,
  longerWindows,
  moveFormData,
  moveTo,
  readMove,
  readWindows,
  showMoreSearch,
  STATUS_CATEGORIES,
  type Status,
} from './board.ts';

// Board order: by position, columns interleaved, as the loader returns it.
const board = (spec: string) =>
  spec.split(' ').map((pair) => {
    const [id, status] = pair.split(':') as [string, Status];
    return { id, status };
  });
const columns = (tasks: Array<{ id: string; status: Status }>) =>
  Object.fromEntries(
    (['backlog', 'todo', 'in_progress', 'done'] as const).map((s) => [
      s,
      tasks.filter((t) => t.status === s).map((t) => t.id),
    ]),
  );

describe('applyMove', () => {
  const tasks = board('a:todo x:done b:todo y:done c:todo');

  it('moves one step up or down within a column, past tasks of other columns', () => {
    expect(columns(applyMove(tasks, { taskId: 'c', status: 'todo', direction: 'up' })).todo).toEqual([
      'a',
      'c',
      'b',
    ]);
    expect(columns(applyMove(tasks, { taskId: 'a', status: 'todo', direction: 'down' })).todo).toEqual([
      'b',
      'a',
      'c',
    ]);
    // Top up and bottom down change nothing.
    expect(applyMove(tasks, { taskId: 'a', status: 'todo', direction: 'up' })).toBe(tasks);
    expect(applyMove(tasks, { taskId: 'c', status: 'todo', direction: 'down' })).toBe(tasks);
  });

  it('lands above or below a named neighbour, in the same or another column', () => {
    const moved = applyMove(tasks, { taskId: 'a', status: 'done', beforeTaskId: 'y' });
    expect(columns(moved)).toMatchObject({ todo: ['b', 'c'], done: ['x', 'a', 'y'] });
    expect(moved.find((t) => t.id === 'a')?.status).toBe('done');
    expect(columns(applyMove(tasks, { taskId: 'c', status: 'todo', afterTaskId: 'a' })).todo).toEqual([
      'a',
      'c',
      'b',
    ]);
  });

  it('goes to the bottom of the column when no neighbour is named, and into empty columns', () => {
    expect(columns(applyMove(tasks, { taskId: 'a', status: 'done' })).done).toEqual(['x', 'y', 'a']);
    expect(columns(applyMove(tasks, { taskId: 'b', status: 'backlog' })).backlog).toEqual(['b']);
    // The same column without a neighbour or direction: the move action changes nothing either.
    expect(applyMove(tasks, { taskId: 'a', status: 'todo' })).toBe(tasks);
  });

  it('ignores moves it cannot apply', () => {
    expect(applyMove(tasks, { taskId: 'nope', status: 'done' })).toBe(tasks);
    // A neighbour from another column is refused by move_task too.
    expect(applyMove(tasks, { taskId: 'a', status: 'done', beforeTaskId: 'b' })).toBe(tasks);
  });
});

describe('moveTo', () => {
  const tasks = board('a:todo b:todo c:todo x:done');

  it('names both neighbours of the slot, counting the column without the moving task', () => {
    expect(moveTo(tasks, 'a', 'todo', 2)).toEqual({
      taskId: 'a',
      status: 'todo',
      afterTaskId: 'c',
      beforeTaskId: undefined,
    });
    expect(moveTo(tasks, 'c', 'todo', 0)).toEqual({
      taskId: 'c',
      status: 'todo',
      afterTaskId: undefined,
      beforeTaskId: 'a',
    });
    expect(moveTo(tasks, 'b', 'done', 1)).toMatchObject({ afterTaskId: 'x', beforeTaskId: undefined });
    expect(moveTo(tasks, 'b', 'backlog', 5)).toMatchObject({
      afterTaskId: undefined,
      beforeTaskId: undefined,
    });
  });

  it('agrees with applyMove', () => {
    for (let index = 0; index <= 2; index++) {
      const moved = applyMove(tasks, moveTo(tasks, 'b', 'todo', index));
      expect(columns(moved).todo?.indexOf('b')).toBe(index);
    }
  });
});

describe('the form of a move', () => {
  it('round-trips through FormData, and anything else is not a move', () => {
    const move = {
      taskId: '00000000-0000-4000-8000-000000000001',
      status: '00000000-0000-4000-8000-0000000000aa',
      beforeTaskId: '00000000-0000-4000-8000-000000000002',
      direction: undefined,
    };
    expect(readMove(moveFormData(move))).toEqual({ ...move, afterTaskId: undefined });
    const other = new FormData();
    other.set('intent', 'create');
    expect(readMove(other)).toBeNull();
    const bad = moveFormData(move);
    bad.set('status', 'archived');
    expect(readMove(bad)).toBeNull();
    expect(readMove(undefined)).toBeNull();
    // The action reads moves through the same function: a task id that is not one is not a move.
    const notAnId = moveFormData(move);
    notAnId.set('taskId', 't1');
    expect(readMove(notAnId)).toBeNull();
    const blankNeighbour = moveFormData(move);
    blankNeighbour.set('afterTaskId', '');
    expect(readMove(blankNeighbour)).toEqual({ ...move, afterTaskId: undefined });
  });
});

describe('column windows', () => {
  // Columns are the project's statuses, asked for by their ids.
  const todo = 'a0000000-0000-4000-8000-000000000001';
  const done = 'a0000000-0000-4000-8000-000000000002';
  const backlog = 'a0000000-0000-4000-8000-000000000003';

  it('reads the windows the address names by status id, and nothing else', () => {
    const windows = readWindows(
      new URLSearchParams(`${todo}=150&${done}=abc&${backlog}=-3&q=100&todo=100&${todo.toUpperCase()}0=80`),
    );
    expect(windows).toEqual({ [todo]: 150 });
  });

  it('never shows fewer than the first window or more than the maximum', () => {
    expect(readWindows(new URLSearchParams(`${todo}=3`))[todo]).toBe(COLUMN_WINDOW);
    expect(readWindows(new URLSearchParams(`${todo}=999999`))[todo]).toBe(MAX_COLUMN_WINDOW);
    expect(readWindows(new URLSearchParams(`${todo.toUpperCase()}=200`))[todo]).toBe(200);
  });

  it('asks the database only for the windows longer than the first', () => {
    expect(longerWindows(readWindows(new URLSearchParams('')))).toEqual({});
    expect(longerWindows(readWindows(new URLSearchParams(`${todo}=150&${done}=3`)))).toEqual({ [todo]: 150 });
  });

  it('adds to one column and keeps every other parameter', () => {
    expect(showMoreSearch(new URLSearchParams(`q=login&${todo}=100`), todo, 150)).toBe(
      `?q=login&${todo}=150`,
    );
    expect(showMoreSearch(new URLSearchParams(''), done, 100)).toBe(`?${done}=100`);
  });
});

describe('categories', () => {
  it('count backlog, unstarted and started as open; completed and canceled are never overdue', () => {
    expect(STATUS_CATEGORIES.filter(isOpenCategory)).toEqual(['backlog', 'unstarted', 'started']);
    expect(STATUS_CATEGORIES.filter(canBeOverdue)).toEqual(['backlog', 'unstarted', 'started']);
  });
});

describe('filters', () => {
  it('reads the filters the address names, and ignores values it does not know', () => {
    expect(readFilters(new URLSearchParams('assignee=me&priority=high&due=overdue&q=%20logo%20'))).toEqual({
      assignee: 'me',
      priority: 'high',
      due: 'overdue',
      q: 'logo',
    });
    expect(readFilters(new URLSearchParams('assignee=none&due=week')).assignee).toBe('none');
    const id = 'C0000000-0000-4000-8000-000000000001';
    expect(readFilters(new URLSearchParams(`assignee=${id}`)).assignee).toBe(id.toLowerCase());
    expect(readFilters(new URLSearchParams('assignee=bob&priority=huge&due=soon&q=%20%20'))).toEqual({});
    expect(readFilters(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
    expect(isFiltered(readFilters(new URLSearchParams('todo=100')))).toBe(false);
    expect(isFiltered(readFilters(new URLSearchParams('priority=none')))).toBe(true);
  });

  it('reads repeated labels, each name once whatever its case, and none that is blank or too long', () => {
    const filters = readFilters(
      new URLSearchParams(`label=%20bug%20&label=Design&label=BUG&label=%20&label=${'x'.repeat(31)}`),
    );
    expect(filters).toEqual({ label: ['bug', 'Design'] });
    expect(isFiltered(filters)).toBe(true);
    expect(isFiltered(readFilters(new URLSearchParams('label=')))).toBe(false);
  });

  it('clears the filters and keeps the column windows', () => {
    expect(clearFiltersSearch(new URLSearchParams('assignee=me&todo=100&q=logo&due=week'))).toBe('?todo=100');
    expect(clearFiltersSearch(new URLSearchParams('label=bug&label=design&todo=100'))).toBe('?todo=100');
    expect(clearFiltersSearch(new URLSearchParams('priority=low'))).toBe('?');
  });
});
