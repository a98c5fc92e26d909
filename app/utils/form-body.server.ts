// Reads the body of a form post, whatever arrives: a body that is not a form, or a broken one, is the
// sender's mistake and gets a 400 (415 for another content type), never a 500. busboy parses both
// encodings; unlike Remix's multipart parser it reads every Content-Disposition a browser sends
// (`filename="report (v=2).pdf"`, `filename*=UTF-8''…`) and names in any script.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';

/** The largest form without a file: a task description (20,000 characters) and its fields, with room. */
const FORM_MAX_BYTES = 1024 * 1024;
/** One text field; longer values are cut here and then refused by their schema, with what fits kept. */
const FIELD_MAX_BYTES = 256 * 1024;

export const BAD_FORM_MESSAGE = "We couldn't read what was sent. Reload the page and try again.";
export const NOT_A_FORM_MESSAGE = 'This address takes web forms only. Reload the page and try again.';

function refuse(status: 400 | 413 | 415, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

export interface FormFile {
  field: string;
  /** The name the browser gave, as sent (possibly empty). */
  filename: string;
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
  /** More bytes came than the limit: `bytes` holds none of them. */
  tooLarge: boolean;
}

export interface FormBody {
  formData: FormData;
  file: FormFile | null;
}

interface ReadOptions {
  /** The one file field this form takes; files in any other field are read and dropped. */
  fileField?: string;
  maxFileBytes?: number;
}

/**
 * Reads a urlencoded or multipart form. Throws a Response (400, 413 or 415) when the body is not a
 * readable form; the route's error boundary shows it inside the page's layout.
 */
export async function readFormBody(request: Request, options: ReadOptions = {}): Promise<FormBody> {
  const contentType = request.headers.get('Content-Type') ?? '';
  const kind = contentType.split(';')[0]?.trim().toLowerCase();
  if (kind !== 'application/x-www-form-urlencoded' && kind !== 'multipart/form-data') {
    throw refuse(415, NOT_A_FORM_MESSAGE);
  }
  const declared = Number(request.headers.get('Content-Length') ?? 0);
  const maxBytes = FORM_MAX_BYTES + (options.maxFileBytes ?? 0);
  if (declared > maxBytes + 64 * 1024 && !options.fileField) throw refuse(413, BAD_FORM_MESSAGE);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // Browsers send names and file names as UTF-8; busboy's default would read them as Latin-1.
      defParamCharset: 'utf8',
      limits: {
        fieldSize: FIELD_MAX_BYTES,
        fields: 200,
        files: 5,
        parts: 250,
        fileSize: options.maxFileBytes ?? 0,
      },
    });
  } catch {
    // A multipart type without a boundary, or a malformed Content-Type.
    throw refuse(400, BAD_FORM_MESSAGE);
  }

  const formData = new FormData();
  const found: { file: FormFile | null } = { file: null };
  let tooMuch = false;

  parser.on('field', (name, value) => formData.append(name, value));
  parser.on('file', (name, stream, info) => {
    const wanted = name === options.fileField && found.file === null;
    if (!wanted) {
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let truncated = false;
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => (truncated = true));
    stream.on('close', () => {
      const bytes = new Uint8Array(Buffer.concat(chunks));
      // A form sent with no file chosen has an empty part with an empty name.
      if (!truncated && bytes.byteLength === 0 && !info.filename) return;
      found.file = {
        field: name,
        // Browsers escape exactly these three in a multipart file name (HTML's "multipart/form-data
        // encoding algorithm"); the name the person chose has them back.
        filename: (info.filename ?? '').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n'),
        contentType: info.mimeType || 'application/octet-stream',
        bytes: truncated ? new Uint8Array() : bytes,
        tooLarge: truncated,
      };
    });
  });
  parser.on('partsLimit', () => (tooMuch = true));
  parser.on('filesLimit', () => (tooMuch = true));
  parser.on('fieldsLimit', () => (tooMuch = true));

  const body = request.body;
  if (!body) throw refuse(400, BAD_FORM_MESSAGE);
  let received = 0;
  const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  try {
    await new Promise<void>((resolve, reject) => {
      parser.once('close', resolve);
      // `on`, not `once`: busboy can report a malformed body more than once, and an error event
      // without a listener would end the process.
      parser.on('error', reject);
      source.on('error', reject);
      source.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        // A file over its limit is still read to the end (busboy drops its bytes), so the browser
        // gets an answer rather than a reset connection; anything else this large is refused.
        if (!options.fileField && received > maxBytes) reject(refuse(413, BAD_FORM_MESSAGE));
      });
      source.pipe(parser);
    });
  } catch (error) {
    // Read the rest and drop it: destroying the request would close the socket before the answer.
    source.unpipe(parser);
    source.resume();
    if (error instanceof Response) throw error;
    // busboy's "Unexpected end of form", a malformed part header, or a client that went away.
    throw refuse(400, BAD_FORM_MESSAGE);
  }
  if (tooMuch) throw refuse(413, BAD_FORM_MESSAGE);
  return { formData, file: found.file };
}

/** A form without files: every action that takes plain fields reads its body with this. */
export async function readForm(request: Request): Promise<FormData> {
  return (await readFormBody(request)).formData;
}
