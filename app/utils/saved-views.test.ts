import { describe, expect, it } from 'vitest';
import { addressedKind, hasViewParams, readViewQuery, viewParams, viewPath } from './saved-views.ts';

const ID = '3f2b8a1e-6c4d-4e5f-9a0b-1c2d3e4f5a6b';

describe('readViewQuery', () => {
  it('keeps the filters and sort an address says, checked as the board and the list check them', () => {
    const params = new URLSearchParams(
      'assignee=me&priority=high&due=overdue&q=%20logo%20&label=Bug&label=bug&label=UI&sort=due&dir=desc&todo=100&x=1',
    );
    expect(readViewQuery(params)).toEqual({
      assignee: 'me',
      priority: 'high',
      due: 'overdue',
      q: 'logo',
      label: ['Bug', 'UI'],
      sort: 'due',
      dir: 'desc',
    });
  });

  it('drops values it does not know, and sorts ascending unless told otherwise', () => {
    expect(readViewQuery(new URLSearchParams('priority=huge&due=never&sort=secret&dir=up'))).toEqual({});
    expect(readViewQuery(new URLSearchParams('sort=title&dir=sideways'))).toEqual({
      sort: 'title',
      dir: 'asc',
    });
    expect(readViewQuery(new URLSearchParams('dir=desc'))).toEqual({});
  });
});

describe('viewParams', () => {
  it('turns a stored query back into GET parameters, labels repeated', () => {
    expect(viewParams({ assignee: 'none', label: ['Bug', 'UI'] }).toString()).toBe(
      'assignee=none&label=Bug&label=UI',
    );
  });

  it('ignores what no address would carry: unknown names, bad values, anything not text', () => {
    expect(viewParams({ select: '*', priority: 'huge', q: 7, label: [1, 'Bug'] }).toString()).toBe(
      'label=Bug',
    );
    expect(viewParams(null).toString()).toBe('');
    expect(viewParams('assignee=me').toString()).toBe('');
  });
});

describe('hasViewParams', () => {
  it('is true when the address says any filter or sort, even blank, and not for windows alone', () => {
    expect(hasViewParams(new URLSearchParams('q=&assignee='))).toBe(true);
    expect(hasViewParams(new URLSearchParams('sort=due'))).toBe(true);
    expect(hasViewParams(new URLSearchParams(`${ID}=100`))).toBe(false);
    expect(hasViewParams(new URLSearchParams(''))).toBe(false);
  });
});

describe('addresses', () => {
  it("name the view under its project, with its parameters, and a list view's sort", () => {
    expect(viewPath('acme', 'WEB', ID)).toBe(`/w/acme/p/web/views/${ID}`);
    expect(viewPath('acme', 'WEB', ID, { priority: 'high' })).toBe(`/w/acme/p/web/views/${ID}?priority=high`);
    expect(viewPath('acme', 'WEB', ID, {})).toBe(`/w/acme/p/web/views/${ID}`);
    expect(viewPath('acme', 'WEB', ID, { sort: 'due', dir: 'asc' })).toBe(
      `/w/acme/p/web/views/${ID}?sort=due&dir=asc`,
    );
    expect(viewPath('acme', 'WEB', ID, { sort: 'due', dir: 'asc' }, 'list')).toBe(
      `/w/acme/p/web/views/${ID}?sort=due&dir=asc&kind=list`,
    );
    expect(viewPath('acme', 'WEB', ID, {}, 'list')).toBe(`/w/acme/p/web/views/${ID}?kind=list`);
  });

  it('say which page a view is: the list when its address says so, else the board', () => {
    expect(addressedKind(new URLSearchParams('sort=due&kind=list'))).toBe('list');
    expect(addressedKind(new URLSearchParams('kind=table'))).toBe('board');
    expect(addressedKind(new URLSearchParams(''))).toBe('board');
  });
});
