import { describe, expect, it } from 'vitest';
import type { Filters, StatusCategory } from './board.ts';
import { boardFilterText, matchesFilters, type FilterableTask, type FilterScope } from './filter-match.ts';

const scope: FilterScope = { me: 'ada', today: '2026-11-28', projectKey: 'WEB' };
const task: FilterableTask = {
  number: 12,
  title: 'Fix the Logo on 100% of pages',
  priority: 'high',
  due: null,
  assignee: null,
  labels: [{ name: 'Design' }],
};
const matches = (
  filters: Filters,
  change: Partial<FilterableTask> = {},
  category: StatusCategory = 'started',
) => matchesFilters(filters, { ...task, ...change }, category, scope);

describe('matchesFilters', () => {
  it('matches every task without a filter', () => {
    expect(matches({})).toBe(true);
  });

  it('reads the assignee as me, nobody or a member', () => {
    expect(matches({ assignee: 'me' }, { assignee: 'ada' })).toBe(true);
    expect(matches({ assignee: 'me' }, { assignee: 'bob' })).toBe(false);
    expect(matches({ assignee: 'me' })).toBe(false);
    expect(matches({ assignee: 'none' })).toBe(true);
    expect(matches({ assignee: 'none' }, { assignee: 'bob' })).toBe(false);
    expect(matches({ assignee: 'bob' }, { assignee: 'bob' })).toBe(true);
    expect(matches({ assignee: 'bob' })).toBe(false);
  });

  it('matches one priority', () => {
    expect(matches({ priority: 'high' })).toBe(true);
    expect(matches({ priority: 'low' })).toBe(false);
    expect(matches({ priority: 'none' }, { priority: 'none' })).toBe(true);
  });

  it('counts only open work overdue, from the day before the board’s today', () => {
    expect(matches({ due: 'overdue' }, { due: '2026-11-27' })).toBe(true);
    expect(matches({ due: 'overdue' }, { due: '2026-11-28' })).toBe(false);
    expect(matches({ due: 'overdue' })).toBe(false);
    expect(matches({ due: 'overdue' }, { due: '2026-11-27' }, 'backlog')).toBe(true);
    expect(matches({ due: 'overdue' }, { due: '2026-11-27' }, 'completed')).toBe(false);
    expect(matches({ due: 'overdue' }, { due: '2026-11-27' }, 'canceled')).toBe(false);
  });

  it('takes this week as today and the six days after, whatever the status, across a month’s end', () => {
    expect(matches({ due: 'week' }, { due: '2026-11-28' }, 'completed')).toBe(true);
    expect(matches({ due: 'week' }, { due: '2026-12-04' })).toBe(true);
    expect(matches({ due: 'week' }, { due: '2026-12-05' })).toBe(false);
    expect(matches({ due: 'week' }, { due: '2026-11-27' })).toBe(false);
    expect(matches({ due: 'week' })).toBe(false);
  });

  it('finds text in the title in any letter case, taken literally', () => {
    expect(matches({ q: 'the logo' })).toBe(true);
    expect(matches({ q: 'LOGO ON' })).toBe(true);
    expect(matches({ q: '100%' })).toBe(true);
    expect(matches({ q: '1_0' })).toBe(false);
    expect(matches({ q: 'icon' })).toBe(false);
  });

  it('finds the task by its number, with or without #, and by a key of this board', () => {
    expect(matches({ q: '12' }, { title: 'Other' })).toBe(true);
    expect(matches({ q: '#12' }, { title: 'Other' })).toBe(true);
    expect(matches({ q: '##12' }, { title: 'Other' })).toBe(true);
    expect(matches({ q: 'WEB-12' }, { title: 'Other' })).toBe(true);
    expect(matches({ q: 'web 12' }, { title: 'Other' })).toBe(true);
    expect(matches({ q: '13' }, { title: 'Other' })).toBe(false);
    expect(matches({ q: 'WEB-13' }, { title: 'Other' })).toBe(false);
    // Another board's key is text: a title holding it matches, the number does not.
    expect(matches({ q: 'API-12' }, { title: 'Other' })).toBe(false);
    expect(matches({ q: 'API-12' }, { title: 'Port api-12 over' })).toBe(true);
    // This board's key is the number (`#12`), which a title may hold too.
    expect(matches({ q: 'WEB-7' }, { title: 'Follow up on #7' })).toBe(true);
    expect(matches({ q: 'WEB-7' }, { title: 'Follow up on WEB-7' })).toBe(false);
  });

  it('matches any of the labels asked for, by name in any letter case, and cannot tell without them', () => {
    expect(matches({ label: ['design', 'bug'] })).toBe(true);
    expect(matches({ label: ['bug'] })).toBe(false);
    expect(matches({ label: ['bug'] }, { labels: [] })).toBe(false);
    expect(matches({ label: ['design'] }, { labels: undefined })).toBeNull();
  });

  it('cannot tell when a letter outside ASCII is to be folded', () => {
    expect(matches({ q: 'café' }, { title: 'Café menu' })).toBeNull();
    expect(matches({ q: 'menu' }, { title: 'Café menu' })).toBe(true);
    expect(matches({ q: 'caf' }, { title: 'Café menu' })).toBe(true);
    expect(matches({ q: 'kelvin' }, { title: '\u212Aelvin' })).toBeNull();
    expect(matches({ label: ['Café'] }, { labels: [{ name: 'café' }] })).toBeNull();
    // Characters without a case fold alike everywhere.
    expect(matches({ q: 'logo — v2' }, { title: 'Logo — v2' })).toBe(true);
    // A failing filter decides first.
    expect(matches({ priority: 'low', q: 'café' })).toBe(false);
  });

  it('needs every filter set to match', () => {
    expect(matches({ priority: 'high', q: 'logo', assignee: 'none', label: ['Design'] })).toBe(true);
    expect(matches({ priority: 'high', q: 'logo', assignee: 'me' })).toBe(false);
  });
});

describe('boardFilterText', () => {
  it('turns a key of this board into its number, and leaves other text as typed', () => {
    expect(boardFilterText('web-12', 'WEB')).toBe('#12');
    expect(boardFilterText('#12', 'WEB')).toBe('#12');
    expect(boardFilterText('API-12', 'WEB')).toBe('API-12');
    expect(boardFilterText('logo', 'WEB')).toBe('logo');
    expect(boardFilterText(undefined, 'WEB')).toBeUndefined();
  });
});
