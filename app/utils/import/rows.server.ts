// What an import file becomes before it meets a project: one row a task, each checked against the
// rules SPEC section 5 gives a task (title 1–200 characters, description ≤ 20,000, a real due date, a
// known priority, label names 1–30), or set aside with the reason and where it was in the file. The
// CSV and Trello readers make these; plan.server.ts then matches them to the project.
import { TASK_PRIORITIES } from '../workspace-schemas.ts';

export type Priority = (typeof TASK_PRIORITIES)[number];
export type ImportSource = 'CSV' | 'Trello';

/** The largest file, and the most tasks, one import takes (SPEC section 5). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_TASKS = 5000;

export interface ImportRow {
  /** Where the row was: "line 4" of a CSV, "card “Fix login”" of a Trello board. */
  where: string;
  title: string;
  description: string;
  /** A status by name; null for the project's default. */
  status: string | null;
  priority: Priority;
  /** Whom the file names (a display name or an email address); matched to a member later. */
  assignee: string | null;
  due_date: string | null;
  labels: string[];
  /** Comment bodies, already worded as the importer's comments ("Ana wrote on …"). */
  comments: string[];
}

export interface Problem {
  where: string;
  message: string;
}

/** A status a Trello list would become, in the board's order. */
export interface ProposedStatus {
  name: string;
  category: 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled';
}

export interface ParsedFile {
  source: ImportSource;
  rows: ImportRow[];
  /** Rows or cards that cannot be imported, and why. */
  problems: Problem[];
  /** What was left out on purpose, in a sentence each (archived cards, ignored columns). */
  notes: string[];
  /** Statuses the file brings, in order (a Trello board's lists); empty for a CSV. */
  statuses: ProposedStatus[];
  /** The colour a label of the file has, by its name in lower case (Trello's label colours). */
  labelColors: Record<string, string>;
}

export type ParseResult = { ok: true; file: ParsedFile } | { ok: false; message: string };

export const refuse = (message: string): ParseResult => ({ ok: false, message });

const LINE_BREAKS = /[\r\n\t\u2028\u2029]+/g;
// C0 and C1 controls but tab, line feed and carriage return: text a description keeps.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** A one-line name: line breaks and tabs become spaces, other control characters go. */
export const oneLine = (value: string) =>
  value.replace(LINE_BREAKS, ' ').replace(CONTROLS, '').replace(/ {2,}/g, ' ').trim();

/** Text with its lines kept, line ends made `\n`, other control characters gone. */
export const multiLine = (value: string) => value.replace(/\r\n?/g, '\n').replace(CONTROLS, '');

/** A real calendar date as YYYY-MM-DD, from `2026-03-01` or an ISO timestamp; null if it is none. */
export function calendarDate(value: string): string | null {
  const date = value.trim().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date) ? date : null;
}

export function readPriority(value: string): Priority | null {
  const wanted = value.trim().toLowerCase() || 'none';
  return TASK_PRIORITIES.find((p) => p === wanted) ?? null;
}

/** Names once each (any letter case), in their first spelling, empty ones dropped. */
export function distinctNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names
    .map(oneLine)
    .filter((name) => name !== '' && !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()));
}

/**
 * The reasons a row cannot become a task, in words that finish "Line 4: …"; none for a good row.
 * The database checks the same limits again when the import runs.
 */
export function rowProblems(row: Omit<ImportRow, 'where'>): string[] {
  const problems: string[] = [];
  if (row.title === '') problems.push('it has no title');
  if (row.title.length > 200) problems.push(`the title is ${row.title.length} characters long (at most 200)`);
  if (row.description.length > 20000)
    problems.push(
      `the description is ${row.description.length.toLocaleString('en')} characters long (at most 20,000)`,
    );
  if (row.status !== null && row.status.length > 30)
    problems.push(`the status “${row.status.slice(0, 40)}…” is longer than 30 characters`);
  for (const label of row.labels)
    if (label.length > 30) problems.push(`the label “${label.slice(0, 40)}…” is longer than 30 characters`);
  for (const comment of row.comments)
    if (comment.length > 5000) problems.push('a comment is longer than 5,000 characters');
  return problems;
}
