import { describe, expect, it } from 'vitest';
import {
  checklistItems,
  checklistProgress,
  foldName,
  parseTaskKey,
  mentionedMembers,
  mentionNames,
} from './markdown-rules.ts';

describe('checklistItems', () => {
  it('numbers every box line in order, any bullet, numbered or indented, checked in either case', () => {
    const text = [
      '- [ ] one',
      '* [x] two',
      '  + [X] three',
      '1. [ ] four',
      '2) [x] five',
      'plain',
      '-[ ] not',
    ].join('\n');
    expect(checklistItems(text)).toEqual([
      { n: 1, line: 0, checked: false, text: 'one' },
      { n: 2, line: 1, checked: true, text: 'two' },
      { n: 3, line: 2, checked: true, text: 'three' },
      { n: 4, line: 3, checked: false, text: 'four' },
      { n: 5, line: 4, checked: true, text: 'five' },
    ]);
  });

  it('leaves out lines inside ``` and ~~~ fences, which close only on their own character', () => {
    const text = [
      '```',
      '- [ ] code',
      '~~~',
      '- [ ] still code',
      '```',
      '- [ ] a',
      '~~~~',
      '- [x] b',
      '~~~',
      '- [x] c',
      '~~~~',
      '- [ ] d',
    ].join('\n');
    expect(checklistItems(text).map((i) => i.text)).toEqual(['a', 'd']);
  });

  it('does not count lines that are not boxes', () => {
    expect(checklistItems('- [y] no\n- [] no\n- [ ]no\n[ ] no\n- [  ] no')).toEqual([]);
  });

  it('reads Windows line ends and empty items', () => {
    expect(checklistItems('- [x] a\r\n- [ ] \r\n')).toEqual([
      { n: 1, line: 0, checked: true, text: 'a' },
      { n: 2, line: 1, checked: false, text: '' },
    ]);
    expect(checklistProgress('- [x] a\n- [ ] b\n- [X] c')).toEqual({ done: 2, total: 3 });
  });
});

describe('mentions', () => {
  const members = [
    { id: '1', name: 'Ana Silva' },
    { id: '2', name: 'Ana Costa' },
    { id: '3', name: "Jean-Luc O'Neil" },
    { id: '4', name: 'Zoë' },
  ];

  it('folds names to lower-case letters and digits', () => {
    expect(foldName("Jean-Luc O'Neil 2")).toBe('jeanluconeil2');
    expect(foldName('ZOË')).toBe('zoë');
  });

  it('names members by their whole name or their first word, folded', () => {
    expect(mentionNames('anasilva', 'Ana Silva')).toBe(true);
    expect(mentionNames('Ana.Silva', 'Ana Silva')).toBe(true);
    expect(mentionNames('ana', 'Ana Silva')).toBe(true);
    expect(mentionNames('silva', 'Ana Silva')).toBe(false);
    expect(mentionNames('an', 'Ana Silva')).toBe(false);
    expect(mentionNames('jean-luc', "Jean-Luc O'Neil")).toBe(true);
    expect(mentionNames('zoë', 'Zoë')).toBe(true);
    expect(mentionNames('zoe', 'Zoë')).toBe(false);
    expect(mentionNames('...', 'Ana Silva')).toBe(false);
  });

  it('mentions everyone a token names', () => {
    expect(mentionedMembers('ana', members).map((m) => m.id)).toEqual(['1', '2']);
    expect(mentionedMembers('anacosta', members).map((m) => m.id)).toEqual(['2']);
    expect(mentionedMembers('bob', members)).toEqual([]);
  });
});

describe('parseTaskKey', () => {
  it('reads a task key in any letter case, with spaces around it', () => {
    expect(parseTaskKey('WEB-12')).toEqual({ key: 'WEB', number: 12 });
    expect(parseTaskKey('  web-3 ')).toEqual({ key: 'WEB', number: 3 });
    expect(parseTaskKey('Ops2-140')).toEqual({ key: 'OPS2', number: 140 });
  });

  it('refuses anything that is not one key and one number', () => {
    for (const typed of [
      '',
      'WEB',
      'WEB-',
      '-12',
      'W-12',
      '12-WEB',
      'WEB 12',
      'WEB-12-3',
      'WEB-012',
      'WEB-1.5',
      'ABCDEFGHIJK-1',
    ])
      expect(parseTaskKey(typed), typed).toBeNull();
  });
});
