import { describe, expect, it } from 'vitest';
import { FILTER_PARAMS } from './board.ts';
import {
  DEFAULT_SORT,
  LIST_SORTS,
  LIST_WINDOW,
  MAX_LIST_WINDOW,
  readShown,
  readSort,
  showMoreRows,
  sortSearch,
  viewSearch,
} from './list.ts';

const params = (search: string) => new URLSearchParams(search);

describe('readSort', () => {
  it('reads every column, either way', () => {
    for (const sort of LIST_SORTS) {
      expect(readSort(params(`sort=${sort}&dir=asc`))).toEqual({ sort, dir: 'asc' });
      expect(readSort(params(`sort=${sort}&dir=desc`))).toEqual({ sort, dir: 'desc' });
    }
  });

  it('sorts by key, ascending, without a sort or with an unknown column', () => {
    expect(readSort(params(''))).toEqual(DEFAULT_SORT);
    expect(DEFAULT_SORT).toEqual({ sort: 'key', dir: 'asc' });
    for (const sort of ['nope', 'DUE', 'due ', '', 'number; drop table tasks', 'position'])
      expect(readSort(params(`sort=${encodeURIComponent(sort)}&dir=desc`))).toEqual(DEFAULT_SORT);
  });

  it('takes an unknown or missing direction as ascending', () => {
    for (const dir of ['', 'up', 'DESC', 'descending'])
      expect(readSort(params(`sort=due&dir=${dir}`))).toEqual({ sort: 'due', dir: 'asc' });
    expect(readSort(params('sort=title'))).toEqual({ sort: 'title', dir: 'asc' });
  });
});

describe('readShown', () => {
  it('shows the first window unless asked for more, within range', () => {
    expect(readShown(params(''))).toBe(LIST_WINDOW);
    expect(readShown(params('show=300'))).toBe(300);
    expect(readShown(params('show=1'))).toBe(LIST_WINDOW);
    expect(readShown(params('show=999999'))).toBe(MAX_LIST_WINDOW);
    for (const bad of ['-5', '1e3', 'abc', '3.5', '1234567'])
      expect(readShown(params(`show=${bad}`))).toBe(LIST_WINDOW);
  });
});

describe('sortSearch', () => {
  it('sorts by a new column ascending and turns the current one round, keeping the filters', () => {
    const here = params('assignee=me&label=bug&label=ux&show=300');
    expect(sortSearch(here, 'due', DEFAULT_SORT)).toBe('?assignee=me&label=bug&label=ux&sort=due&dir=asc');
    const byDue = params('assignee=me&sort=due&dir=asc');
    expect(sortSearch(byDue, 'due', readSort(byDue))).toBe('?assignee=me&sort=due&dir=desc');
    const byDueDesc = params('sort=due&dir=desc');
    expect(sortSearch(byDueDesc, 'due', readSort(byDueDesc))).toBe('?sort=due&dir=asc');
  });
});

describe('showMoreRows and viewSearch', () => {
  it('asks for more rows, keeping the rest', () => {
    expect(showMoreRows(params('sort=due&dir=desc&show=150'), 300)).toBe('?sort=due&dir=desc&show=300');
  });

  it('carries only the filters between the board and the list', () => {
    const list = params('q=logo&sort=due&dir=desc&show=300&label=bug&priority=high');
    expect(viewSearch(list, FILTER_PARAMS)).toBe('?q=logo&label=bug&priority=high');
    expect(viewSearch(params('sort=due'), FILTER_PARAMS)).toBe('');
    expect(viewSearch(params('q=&assignee=&priority=high&due=&sort=due'), FILTER_PARAMS)).toBe(
      '?priority=high',
    );
  });
});
