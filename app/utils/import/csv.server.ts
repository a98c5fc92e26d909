// A CSV of tasks: the export's own format (supabase/functions/export-tasks: task, number, title,
// status, priority, assignee, due date, created, updated, description, labels) or any spreadsheet
// with a `title` column and some of the others, in any order and letter case. Read with csv-parse
// (RFC 4180 quoting, any line ends) rather than by hand: quoting is where hand-written readers break.
import { parse } from 'csv-parse/sync';
import type { ImportRow, ParseResult, Problem } from './rows.server.ts';
import {
  calendarDate,
  distinctNames,
  MAX_IMPORT_TASKS,
  multiLine,
  oneLine,
  readPriority,
  refuse,
  rowProblems,
} from './rows.server.ts';

/** The columns a task is read from, by the header names that mean them. */
const COLUMNS = {
  title: ['title', 'name', 'summary'],
  status: ['status', 'list'],
  priority: ['priority'],
  assignee: ['assignee', 'assigned to'],
  due_date: ['due date', 'due', 'due_date'],
  description: ['description', 'desc'],
  labels: ['labels', 'label', 'tags'],
} as const;
type Column = keyof typeof COLUMNS;

/** Columns of the export that a new project gives anew: its key and number, and its own timestamps. */
const GIVEN_ANEW = new Set(['task', 'number', 'created', 'updated']);

// The export puts a `'` before a cell that a spreadsheet would run as a formula (and before one that
// already began with `'` and then such a character, so the escape is undone exactly). Taking one off
// gives the text back; a formula-like cell without one is kept as it is: it is text here, and the
// export escapes it again on the way out.
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;
export const unescapeCell = (cell: string) => (ESCAPED_FORMULA.test(cell) ? cell.slice(1) : cell);

interface CsvError {
  code: string;
  bytes?: number;
}
const isCsvError = (error: unknown): error is CsvError =>
  error instanceof Error && 'code' in error && typeof error.code === 'string';

/** The 1-based line of a byte offset. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** The line a record starts on, given where the one before it ended (its line end is skipped). */
function startLine(bytes: Uint8Array, previousEnd: number, lines: { at: number; line: number }): number {
  let start = previousEnd;
  while (bytes[start] === 0x0d || bytes[start] === 0x0a) start++;
  // Counted on from the last record, so a file of 5,000 rows is walked once.
  for (let i = lines.at; i < start; i++) if (bytes[i] === 0x0a) lines.line++;
  lines.at = start;
  return lines.line;
}

function quotingMessage(error: CsvError, bytes: Uint8Array): string {
  const line = lineAt(bytes, error.bytes ?? bytes.length);
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `Line ${line}: a quoted cell is never closed. Check the double quotes on that line.`;
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `Line ${line}: a double quote is out of place. A cell with quotes in it is written "like ""this""".`;
    default:
      return `Line ${line}: this line could not be read as CSV.`;
  }
}

/** `text` is the file, decoded (checked UTF-8, without a byte order mark). */
export function parseCsv(text: string): ParseResult {
  const body = new TextEncoder().encode(text);
  const lines = { at: 0, line: 1 };
  let previousEnd = 0;
  const records: Array<{ line: number; cells: string[] }> = [];
  try {
    parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength), {
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: (cells: string[], context: { bytes: number }) => {
        records.push({ line: startLine(body, previousEnd, lines), cells });
        previousEnd = context.bytes;
        // One more than the limit is enough to refuse; the rest need not be read.
        if (records.length > MAX_IMPORT_TASKS + 1) throw new TooMany();
        return null;
      },
    });
  } catch (error) {
    if (error instanceof TooMany) {
      const line = records[MAX_IMPORT_TASKS + 1]?.line ?? 0;
      return refuse(
        `Line ${line}: the file has more than ${MAX_IMPORT_TASKS.toLocaleString('en')} tasks. Import at most that many at once.`,
      );
    }
    if (isCsvError(error)) return refuse(quotingMessage(error, body));
    throw error;
  }

  const [header, ...data] = records;
  if (!header) return refuse('The file is empty.');
  const names = header.cells.map((cell) => oneLine(unescapeCell(cell)).toLowerCase());
  const at = {} as Record<Column, number>;
  for (const column of Object.keys(COLUMNS) as Column[]) {
    const index = names.findIndex((name) => (COLUMNS[column] as readonly string[]).includes(name));
    if (index >= 0) at[column] = index;
  }
  if (at.title === undefined) {
    return refuse(
      'Line 1: there is no “title” column. The first line names the columns: title, status, priority, assignee, due date, description, labels.',
    );
  }
  if (data.length > MAX_IMPORT_TASKS) {
    return refuse(`Line ${data[MAX_IMPORT_TASKS]?.line ?? 0}: the file has more than 5,000 tasks.`);
  }
  const known = new Set(Object.values(at));
  const ignored = header.cells
    .map((cell, i) => ({ name: oneLine(cell), i }))
    .filter(({ name, i }) => name !== '' && !known.has(i) && !GIVEN_ANEW.has(name.toLowerCase()))
    .map(({ name }) => `“${name}”`);

  const rows: ImportRow[] = [];
  const problems: Problem[] = [];
  for (const { line, cells } of data) {
    const where = `Line ${line}`;
    if (cells.length > header.cells.length) {
      problems.push({
        where,
        message: `it has ${cells.length} cells and the first line names ${header.cells.length} columns`,
      });
      continue;
    }
    const cell = (column: Column) => {
      const index = at[column];
      return index === undefined ? '' : unescapeCell(cells[index] ?? '');
    };
    const priority = readPriority(cell('priority'));
    const dueText = cell('due_date').trim();
    const dueDate = dueText === '' ? null : calendarDate(dueText);
    const status = oneLine(cell('status'));
    const assignee = oneLine(cell('assignee'));
    const row = {
      title: oneLine(cell('title')),
      description: multiLine(cell('description')),
      status: status === '' ? null : status,
      priority: priority ?? 'none',
      assignee: assignee === '' ? null : assignee,
      due_date: dueDate,
      labels: distinctNames(cell('labels').split(',')),
      comments: [],
    };
    const reasons = rowProblems(row);
    if (priority === null)
      reasons.push(
        `the priority “${oneLine(cell('priority'))}” is not one of none, low, medium, high, urgent`,
      );
    if (dueText !== '' && dueDate === null)
      reasons.push(`the due date “${oneLine(dueText).slice(0, 40)}” is not a date (write it as 2026-03-31)`);
    if (reasons.length > 0) problems.push({ where, message: reasons.join('; ') });
    else rows.push({ where, ...row });
  }
  return {
    ok: true,
    file: {
      source: 'CSV',
      rows,
      problems,
      notes: ignored.length > 0 ? [`Columns not imported: ${ignored.join(', ')}.`] : [],
      statuses: [],
      labelColors: {},
    },
  };
}

class TooMany extends Error {}
