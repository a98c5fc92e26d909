// CSV as RFC 4180 writes it (CRLF line ends; a field with a comma, a double quote or a line break
// is quoted, its quotes doubled), made safe to open in a spreadsheet: a text cell that starts with
// `=`, `+`, `-`, `@`, a tab or a carriage return would run as a formula, so it gets a leading `'`
// (OWASP, "CSV Injection"). A cell that already starts with `'` and then such a character gets one
// more, so an import (app/utils/import/csv.server.ts) takes exactly one off and reads the text back.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type Cell = string | number | null | undefined;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(cells: Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
