import { describe, expect, it } from 'vitest';
import { isEmptySearch, markedPieces, parseSearch, taskNumberIn } from './search-query.ts';

describe('parseSearch', () => {
  it('keeps plain words as words, with no key and no filter', () => {
    expect(parseSearch('bootl signing')).toEqual({
      words: ['bootl', 'signing'],
      key: null,
      filters: {},
      notes: [],
      problem: null,
    });
  });

  it.each([
    ['WEB-12', { project: 'WEB', number: 12 }, ['WEB-12']],
    ['web-12', { project: 'WEB', number: 12 }, ['web-12']],
    ['web 12', { project: 'WEB', number: 12 }, ['web', '12']],
    ['fix web 12 now', { project: 'WEB', number: 12 }, ['fix', 'web', '12', 'now']],
    ['#12', { project: null, number: 12 }, []],
    ['project:web #12', { project: 'WEB', number: 12 }, []],
  ])('reads %j as a task key', (text, key, words) => {
    const parsed = parseSearch(text);
    expect(parsed.key).toEqual(key);
    expect(parsed.words).toEqual(words);
  });

  it.each(['web', '12', 'w-12', 'web-', 'toolongprojectkey-1', 'web 1234567890'])(
    'finds no key in %j',
    (text) => {
      expect(parseSearch(text).key).toBeNull();
    },
  );

  it('reads every filter, quoted values included, and leaves the rest as words', () => {
    const parsed = parseSearch('assignee:me status:"In review" is:open label:Bug project:web login');
    expect(parsed.filters).toEqual({
      assignee: 'me',
      status: 'In review',
      state: 'open',
      label: 'Bug',
      project: 'WEB',
    });
    expect(parsed.words).toEqual(['login']);
    expect(parsed.notes).toEqual([]);
  });

  it('reads assignee by name, nobody, and is:done; filter names in any case', () => {
    expect(parseSearch('Assignee:"Ada Lovelace" IS:Done').filters).toEqual({
      assignee: 'Ada Lovelace',
      state: 'done',
    });
    expect(parseSearch('assignee:unassigned').filters).toEqual({ assignee: 'none' });
  });

  it('ignores unknown filters and wrong values, saying so', () => {
    const parsed = parseSearch('owner:ada is:blocked crash');
    expect(parsed.words).toEqual(['crash']);
    expect(parsed.filters).toEqual({});
    expect(parsed.notes).toEqual([
      '“owner:” is not a filter, so it was ignored. Filters: assignee:, status:, is:, label:, project:.',
      '“is:blocked” was ignored: “is:” takes open or done.',
    ]);
  });

  it('ignores an unbalanced quote, saying so, and keeps the words', () => {
    const parsed = parseSearch('"boot loader');
    expect(parsed.words).toEqual(['boot', 'loader']);
    expect(parsed.notes).toEqual(['A quotation mark without its pair was ignored.']);
    expect(parseSearch('label:"needs design').filters).toEqual({ label: 'needs' });
  });

  it('reads control characters as spaces', () => {
    expect(parseSearch('boot\u0000loader\u0007\n').words).toEqual(['boot', 'loader']);
    expect(parseSearch('\u0001\u0002').words).toEqual([]);
  });

  it('refuses a search over 200 characters with a message, and searches nothing', () => {
    const parsed = parseSearch('a'.repeat(201));
    expect(parsed.problem).toBe('A search can be at most 200 characters long; this one has 201.');
    expect(isEmptySearch(parsed)).toBe(true);
    expect(parseSearch('a'.repeat(200)).problem).toBeNull();
  });

  it('takes at most 12 words', () => {
    expect(parseSearch(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ')).words).toHaveLength(12);
  });

  it('passes SQL-looking text on as words, which the database only ever binds as parameters', () => {
    expect(parseSearch("x'); drop table tasks; --").words).toEqual(["x');", 'drop', 'table', 'tasks;', '--']);
  });

  it('says when nothing is left to search', () => {
    expect(isEmptySearch(parseSearch('   '))).toBe(true);
    expect(isEmptySearch(parseSearch('is:open'))).toBe(false);
  });
});

describe('taskNumberIn', () => {
  it.each([
    ['WEB-12', 12],
    ['web-12', 12],
    ['web 12', 12],
    [' Web - 12 ', 12],
    ['#12', 12],
  ])('reads %j as task 12 of WEB', (text, number) => {
    expect(taskNumberIn(text, 'WEB')).toBe(number);
  });

  it.each(['API-12', 'web', '12', 'web-12x', 'login'])('reads %j as no task of WEB', (text) => {
    expect(taskNumberIn(text, 'WEB')).toBeNull();
  });
});

describe('markedPieces', () => {
  it('splits marked text into plain and marked pieces', () => {
    expect(markedPieces('Fix \u0001boot\u0002 and \u0001Bootloader\u0002')).toEqual([
      { text: 'Fix ', marked: false },
      { text: 'boot', marked: true },
      { text: ' and ', marked: false },
      { text: 'Bootloader', marked: true },
    ]);
  });

  it('keeps HTML in the data as text, never as markup', () => {
    expect(markedPieces('<img src=x onerror=alert(1)> \u0001<b>boot\u0002')).toEqual([
      { text: '<img src=x onerror=alert(1)> ', marked: false },
      { text: '<b>boot', marked: true },
    ]);
  });

  it('reads stray marks as nothing', () => {
    expect(markedPieces('a\u0002b\u0001c')).toEqual([
      { text: 'ab', marked: false },
      { text: 'c', marked: false },
    ]);
  });
});
