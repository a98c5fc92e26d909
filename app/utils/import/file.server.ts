// An uploaded import file, whatever it turns out to be: checked for size and for UTF-8 (a file saved
// in another encoding is refused with the line of its first undecodable byte, not imported as
// mojibake), then read as a Trello board's JSON when it is JSON, else as CSV.
import { parseCsv } from './csv.server.ts';
import type { ParseResult } from './rows.server.ts';
import { MAX_IMPORT_BYTES, refuse } from './rows.server.ts';
import { parseTrello } from './trello.server.ts';

export const NOT_CSV_OR_JSON =
  'That file is neither CSV nor JSON. Upload a CSV file (such as a project’s export) or a Trello board’s JSON export.';

/** The line of the first character TextDecoder could not decode (it reads as U+FFFD). */
function lineOfBadByte(bytes: Uint8Array): number {
  const loose = new TextDecoder('utf-8').decode(bytes);
  const at = loose.indexOf('\uFFFD');
  return loose.slice(0, at < 0 ? 0 : at).split('\n').length;
}

/** The 1-based line of a character offset. */
const lineOfOffset = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

export function parseImportFile(bytes: Uint8Array, tooLarge = false): ParseResult {
  if (tooLarge || bytes.byteLength > MAX_IMPORT_BYTES) {
    return refuse(
      `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Import at most 10 MB at once.`,
    );
  }
  if (bytes.byteLength === 0) return refuse('The file is empty.');
  // A NUL byte is never in text: a spreadsheet's own format, a PDF, an image.
  if (bytes.subarray(0, 64 * 1024).includes(0)) return refuse(NOT_CSV_OR_JSON);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse(
      `Line ${lineOfBadByte(bytes)}: the file is not UTF-8 text. Save it as “CSV UTF-8” (or UTF-8 JSON) and upload it again.`,
    );
  }
  const start = text.trimStart().charAt(0);
  if (start === '{' || start === '[') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      // V8 says where: "… in JSON at position 1234 (line 5 column 3)".
      const position = /position (\d+)/.exec(error instanceof Error ? error.message : '');
      const where = position ? `Line ${lineOfOffset(text, Number(position[1]))}: the` : 'The';
      return refuse(`${where} file starts as JSON but is not valid JSON.`);
    }
    return parseTrello(json);
  }
  return parseCsv(text);
}
