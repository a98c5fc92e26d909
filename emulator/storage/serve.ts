// Serving an object body the way storage-api's asset renderer does (supabase/storage
// src/storage/renderer/renderer.ts, src/storage/range.ts, src/storage/backend/file.ts): the stored
// Content-Type, Cache-Control, ETag and Last-Modified, `?download=` as Content-Disposition, ranges,
// conditional requests — streamed from disk, never buffered.
//
// One deliberate hardening on top: a stored Content-Type is whatever the uploader claimed, so a type a
// browser would execute (HTML, SVG, XHTML, XML, JavaScript) is never shown inline. Like storage-api,
// `text/html` is served as `text/plain`; every active type is additionally sent as an attachment with a
// `Content-Security-Policy: sandbox`, and every response carries `X-Content-Type-Options: nosniff`.
// An `<img src>` of an SVG still renders (browsers ignore Content-Disposition for images, and image
// documents run no script); opening the URL downloads it instead of running it on the API's origin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { header } from '../lib/http.ts';
import { errors, StorageError } from './errors.ts';
import type { ObjectFiles } from './files.ts';

export interface StoredMetadata {
  eTag?: unknown;
  size?: unknown;
  mimetype?: unknown;
  cacheControl?: unknown;
  lastModified?: unknown;
  contentLength?: unknown;
}

export interface ServeOptions {
  download?: string | null;
  /** Signed URLs send Expires (the token's expiry) instead of Cache-Control. */
  expires?: Date;
  headOnly?: boolean;
  /** For the attachment filename of an active type when no `download` name is given. */
  objectName: string;
}

const ACTIVE_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
  'multipart/x-mixed-replace',
]);

function essence(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Content-Type and whether the body must not be rendered inline. */
export function safeContentType(stored: unknown): { contentType: string; active: boolean } {
  const raw = typeof stored === 'string' ? stored : '';
  // Anything that cannot be a header value (or is empty) is served as opaque bytes.
  if (raw === '' || /[^\t\x20-\x7e]/.test(raw)) {
    return { contentType: 'application/octet-stream', active: false };
  }
  const type = essence(raw);
  const active = ACTIVE_TYPES.has(type) || type.endsWith('+xml') || !type.includes('/');
  // storage-api's normalizeContentType: HTML is never served as HTML.
  const contentType = type === 'text/html' ? 'text/plain' : raw;
  return { contentType, active };
}

export interface ByteRange {
  start: number;
  end: number;
}

/** storage-api's parseRangeHeader: one `bytes=a-b`, `bytes=a-` or `bytes=-n` range, or 416. */
export function parseRange(value: string, size: number): ByteRange {
  const match = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!match || size <= 0) throw errors.invalidRange();
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') throw errors.invalidRange();
  if (from === '') {
    const suffix = Number(to);
    if (!Number.isSafeInteger(suffix) || suffix <= 0) throw errors.invalidRange();
    return { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Number(to);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start || start >= size) {
    throw errors.invalidRange();
  }
  return { start, end: Math.min(end, size - 1) };
}

/** storage-api's Renderer.handleDownload: `?download=` (empty for no file name) as an attachment. */
export function attachmentDisposition(name: string): string {
  if (name === '') return 'attachment;';
  const encoded = encodeURIComponent(name);
  return `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`;
}

function contentDisposition(download: string | null | undefined, active: boolean, objectName: string) {
  const name = download ?? (active ? (objectName.split('/').pop() ?? '') : undefined);
  return name === undefined ? undefined : attachmentDisposition(name);
}

function lastModifiedOf(metadata: StoredMetadata): Date | undefined {
  const value = metadata.lastModified;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

/**
 * The body of a row whose file is gone (a row inserted by SQL, or a lost file): storage-api's
 * renderer answers a backend 404 this way.
 */
export function sendResourceMissing(res: ServerResponse): void {
  const body = JSON.stringify({
    error: 'Not found',
    message: 'The resource was not found',
    statusCode: '404',
    code: 'NoSuchKey',
  });
  res.writeHead(400, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

export async function serveObject(
  req: IncomingMessage,
  res: ServerResponse,
  files: ObjectFiles,
  object: { version: string | null; metadata: StoredMetadata | null },
  options: ServeOptions,
): Promise<void> {
  const body = await files.open(object.version);
  if (!body) {
    sendResourceMissing(res);
    return;
  }
  const metadata = object.metadata ?? {};
  const { contentType, active } = safeContentType(metadata.mimetype);
  const eTag = stringOr(metadata.eTag, '');
  const lastModified = lastModifiedOf(metadata);
  const headers: Record<string, string | number> = {
    'Accept-Ranges': 'bytes',
    'Content-Type': contentType,
    'X-Robots-Tag': 'none',
    'X-Content-Type-Options': 'nosniff',
  };
  if (eTag) headers.ETag = eTag;
  if (lastModified) headers['Last-Modified'] = lastModified.toUTCString();
  if (options.expires) headers.Expires = options.expires.toUTCString();
  else headers['Cache-Control'] = stringOr(metadata.cacheControl, 'no-cache');
  const disposition = contentDisposition(options.download, active, options.objectName);
  if (disposition) headers['Content-Disposition'] = disposition;
  if (active) headers['Content-Security-Policy'] = "default-src 'none'; sandbox";

  const ifNoneMatch = header(req, 'if-none-match');
  const ifModifiedSince = header(req, 'if-modified-since');
  const notModified =
    (ifNoneMatch !== undefined && eTag !== '' && ifNoneMatch === eTag) ||
    (ifNoneMatch === undefined &&
      ifModifiedSince !== undefined &&
      lastModified !== undefined &&
      Math.floor(lastModified.getTime() / 1000) <= new Date(ifModifiedSince).getTime() / 1000);
  if (notModified) {
    res.writeHead(304, headers);
    res.end();
    return;
  }

  const rangeHeader = header(req, 'range');
  let range: ByteRange | undefined;
  if (rangeHeader !== undefined) {
    try {
      range = parseRange(rangeHeader, body.size);
    } catch (error) {
      if (error instanceof StorageError) {
        const payload = JSON.stringify(error.body());
        res.writeHead(error.httpStatus, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(payload),
          'Content-Range': `bytes */${body.size}`,
        });
        res.end(payload);
        return;
      }
      throw error;
    }
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${body.size}`;
    headers['Content-Length'] = range.end - range.start + 1;
  } else {
    headers['Content-Length'] = body.size;
  }
  res.writeHead(range ? 206 : 200, headers);
  if (options.headOnly || req.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    await pipeline(body.read(range), res);
  } catch {
    // The client went away mid-download: nothing to answer, the stream is already closed.
  }
}
