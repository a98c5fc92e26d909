import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unescapeCell } from './csv.server.ts';
import { NOT_CSV_OR_JSON, parseImportFile } from './file.server.ts';
import type { ParsedFile } from './rows.server.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const HEADER = 'task,number,title,status,priority,assignee,due date,created,updated,description,labels\r\n';

function parsed(text: string | Uint8Array): ParsedFile {
  const result = parseImportFile(typeof text === 'string' ? bytes(text) : text);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.file;
}
function refused(text: string | Uint8Array, tooLarge = false): string {
  const result = parseImportFile(typeof text === 'string' ? bytes(text) : text, tooLarge);
  if (result.ok) throw new Error('accepted');
  return result.message;
}

describe('CSV in the export’s format', () => {
  it('reads every column the export writes, quoted cells and line breaks included', () => {
    const file = parsed(
      HEADER +
        'WEB-1,1,Fix login,In progress,high,Ana Lima,2026-03-31,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,"Two\r\nlines, ""quoted""","bug, design"\r\n' +
        'WEB-2,2,Plain,To do,none,,,,,,\r\n',
    );
    expect(file.source).toBe('CSV');
    expect(file.problems).toEqual([]);
    expect(file.notes).toEqual([]);
    expect(file.rows).toEqual([
      {
        where: 'Line 2',
        title: 'Fix login',
        description: 'Two\nlines, "quoted"',
        status: 'In progress',
        priority: 'high',
        assignee: 'Ana Lima',
        due_date: '2026-03-31',
        labels: ['bug', 'design'],
        comments: [],
      },
      expect.objectContaining({
        where: 'Line 4',
        title: 'Plain',
        status: 'To do',
        assignee: null,
        labels: [],
      }),
    ]);
  });

  it('takes the export’s formula escape off, and keeps an unescaped formula-like cell as text', () => {
    expect(unescapeCell("'=1+1")).toBe('=1+1');
    expect(unescapeCell("''=1+1")).toBe("'=1+1");
    expect(unescapeCell("'- [ ] item")).toBe('- [ ] item');
    expect(unescapeCell("'plain")).toBe("'plain");
    const file = parsed(`title,description\r\n=cmd|' /C calc'!A0,'@SUM(A1)\r\n+1,-2\r\n`);
    expect(file.rows.map((r) => [r.title, r.description])).toEqual([
      ["=cmd|' /C calc'!A0", '@SUM(A1)'],
      ['+1', '-2'],
    ]);
  });

  it('reads a spreadsheet with only a title column, in any letter case and order', () => {
    const file = parsed('Notes,Title\nsomething,Buy milk\n');
    expect(file.rows).toEqual([
      expect.objectContaining({ title: 'Buy milk', status: null, priority: 'none' }),
    ]);
    expect(file.notes).toEqual(['Columns not imported: “Notes”.']);
  });

  it('sets aside each bad row with its line and reason, and keeps the others', () => {
    const file = parsed(
      'title,priority,due date\n' +
        'Good,low,2026-01-05\n' +
        ',low,\n' +
        'Bad priority,soon,\n' +
        'Bad date,,2026-02-30\n' +
        `${'x'.repeat(201)},,\n` +
        'Too,many,cells,here\n',
    );
    expect(file.rows.map((r) => r.title)).toEqual(['Good']);
    expect(file.problems).toEqual([
      { where: 'Line 3', message: 'it has no title' },
      { where: 'Line 4', message: 'the priority “soon” is not one of none, low, medium, high, urgent' },
      { where: 'Line 5', message: 'the due date “2026-02-30” is not a date (write it as 2026-03-31)' },
      { where: 'Line 6', message: 'the title is 201 characters long (at most 200)' },
      { where: 'Line 7', message: 'it has 4 cells and the first line names 3 columns' },
    ]);
  });

  it('refuses a CSV without a title column', () => {
    expect(refused('name2,status\nx,y\n')).toMatch(/^Line 1: there is no “title” column/);
  });

  it('refuses broken quoting, naming the line', () => {
    expect(refused('title,description\nok,fine\n"never closed,x\nmore\n')).toMatch(
      /^Line 3: a quoted cell is never closed/,
    );
    expect(refused('title,description\nok,fine\nbad,a "quote" here\n')).toMatch(
      /^Line 3: a double quote is out of place/,
    );
  });

  it('refuses more than 5,000 tasks, naming the first line over', () => {
    const rows = Array.from({ length: 5001 }, (_, i) => `Task ${i + 1}`).join('\n');
    expect(refused(`title\n${rows}\n`)).toMatch(/^Line 5002: the file has more than 5,000 tasks/);
    expect(parsed(`title\n${rows.split('\n').slice(0, 5000).join('\n')}\n`).rows).toHaveLength(5000);
  });
});

describe('files that are no import', () => {
  it('refuses a file that is neither CSV nor JSON', () => {
    expect(refused(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08]))).toBe(NOT_CSV_OR_JSON);
    expect(refused('')).toBe('The file is empty.');
  });

  it('refuses text that is not UTF-8, naming the line', () => {
    // "Café" in Windows-1252 on line 3.
    const latin1 = new Uint8Array([...bytes('title\nok\nCaf'), 0xe9, ...bytes('\n')]);
    expect(refused(latin1)).toMatch(/^Line 3: the file is not UTF-8 text/);
  });

  it('reads a UTF-8 file with a byte order mark', () => {
    expect(parsed(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('title\nCafé\n')])).rows[0]?.title).toBe('Café');
  });

  it('refuses over 10 MB', () => {
    expect(refused('title\n', true)).toMatch(/larger than 10 MB/);
  });

  it('refuses broken JSON with its line, and JSON of another shape', () => {
    expect(refused('{\n  "cards": [1,\n    2 3\n  ]\n}')).toMatch(
      /^Line 3: the file starts as JSON but is not valid JSON/,
    );
    expect(refused('{"cards": [oops]}')).toBe('The file starts as JSON but is not valid JSON.');
    expect(refused('{"tasks": []}')).toMatch(/^This JSON is not a Trello board export \(at lists\)/);
    expect(refused('[1, 2]')).toMatch(/^This JSON is not a Trello board export/);
    expect(refused('{"lists": [], "cards": [{"id": "x"}]}')).toMatch(/\(at cards\[0\]\.name\)/);
  });
});

describe('a Trello board export', () => {
  const board = readFileSync(new URL('./fixtures/trello-board.json', import.meta.url));

  it('makes statuses of its open lists, in the board’s order, with a category from each name', () => {
    expect(parsed(board).statuses).toEqual([
      { name: 'To Do', category: 'unstarted' },
      { name: 'Doing', category: 'started' },
      { name: 'Shipped', category: 'completed' },
    ]);
  });

  it('makes tasks of its open cards, with description, checklists, due date, labels, member and comments', () => {
    const file = parsed(board);
    expect(file.source).toBe('Trello');
    expect(file.problems).toEqual([]);
    expect(file.rows.map((r) => r.title)).toEqual(['New logo', 'Fix login on Safari', 'Release 1.0']);
    expect(file.rows[1]).toEqual({
      where: 'Card “Fix login on Safari”',
      title: 'Fix login on Safari',
      description:
        'Users on Safari 17 are sent back to the sign-in page.\n\n**Steps**\n- [x] Reproduce\n- [ ] Write a test',
      status: 'Doing',
      priority: 'none',
      assignee: 'ana@example.test',
      due_date: '2026-03-31',
      labels: ['Bug'],
      comments: [
        '**Ana Lima** wrote on 2026-02-01 in Trello:\n\nSeen on my phone too.',
        '**Bo Chen** wrote on 2026-02-03 in Trello:\n\nFound it: the cookie is SameSite=None.',
      ],
    });
    // A member without an email address in the export is no one here; a colour-only label is named by its colour.
    expect(file.rows[0]).toMatchObject({ assignee: null, labels: ['Design', 'Green'] });
    expect(file.labelColors).toEqual({ bug: 'red', design: 'teal', green: 'green' });
  });

  it('leaves archived cards and lists out, and says how many', () => {
    expect(parsed(board).notes).toEqual([
      '1 archived card is left out.',
      '1 archived list is left out, with the 1 cards on them.',
      '1 card has a member without an email address in the export: left unassigned.',
    ]);
  });

  it('sets aside a card that cannot be a task, by its name', () => {
    const json = JSON.parse(board.toString()) as { cards: Array<{ name: string }> };
    json.cards[0]!.name = 'y'.repeat(250);
    const file = parsed(JSON.stringify(json));
    expect(file.problems).toEqual([
      { where: `Card “${'y'.repeat(60)}”`, message: 'the title is 250 characters long (at most 200)' },
    ]);
    expect(file.rows).toHaveLength(2);
  });
});
