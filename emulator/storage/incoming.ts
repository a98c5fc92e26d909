// The file of an upload request, as storage-api's fileUploadFromRequest reads it
// (supabase/storage src/storage/uploader.ts): a raw body with its Content-Type, Cache-Control and
// base64 `x-metadata`, or multipart/form-data whose fields (`cacheControl`, `metadata`,
// `contentType`) precede one file part — what storage-js sends for a Blob, File or FormData.
// Nothing is buffered: the caller gets a stream to pipe to disk.
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import { header } from '../lib/http.ts';
import { errors, StorageError } from './errors.ts';

const MAX_USER_METADATA_BYTES = 1024 * 1024;

export interface IncomingFile {
  body: Readable;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | undefined;
  /** The request's Content-Length for a raw body (policies see it as `metadata->>'contentLength'`). */
  declaredLength: number | undefined;
}

export interface UploadLimits {
  maxFileSize: number;
  allowedMimeTypes: string[] | null;
  objectName: string;
}

/** storage-api lets folder placeholders through whatever the bucket allows. */
export function isEmptyFolderPlaceholder(name: string): boolean {
  return name.endsWith('.emptyFolderPlaceholder');
}

/** `image/*` allows any image; otherwise type and subtype must match (parameters are ignored). */
export function checkMimeType(mimeType: string, allowed: string[]): void {
  const [type, subtype] = mimeType.split('/');
  if (type === undefined || subtype === undefined) throw errors.invalidMimeType(mimeType);
  for (const entry of allowed) {
    const [allowedType, allowedSubtype] = entry.split('/');
    if (allowedType !== type) continue;
    if (allowedSubtype === '*' || allowedSubtype === subtype) return;
  }
  throw errors.invalidMimeType(mimeType);
}

export function parseBase64Metadata(value: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function parseJsonMetadata(value: string): Record<string, unknown> | undefined {
  if (Buffer.byteLength(value, 'utf8') > MAX_USER_METADATA_BYTES) {
    throw errors.entityTooLarge('user_metadata');
  }
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function checkAllowed(mimeType: string, limits: UploadLimits): void {
  if (limits.allowedMimeTypes && limits.allowedMimeTypes.length > 0) {
    if (!isEmptyFolderPlaceholder(limits.objectName)) checkMimeType(mimeType, limits.allowedMimeTypes);
  }
}

function closing(error: StorageError): StorageError {
  error.closeConnection = true;
  return error;
}

export function incomingFile(req: IncomingMessage, limits: UploadLimits): Promise<IncomingFile> {
  const contentType = header(req, 'content-type');
  if (contentType?.startsWith('multipart/form-data')) return multipartFile(req, contentType, limits);

  const mimeType = contentType || 'application/octet-stream';
  checkAllowed(mimeType, limits);
  const metadataHeader = header(req, 'x-metadata');
  const declared = Number(header(req, 'content-length'));
  const declaredLength = Number.isFinite(declared) && declared >= 0 ? declared : undefined;
  if (declaredLength !== undefined && declaredLength > limits.maxFileSize) {
    throw closing(errors.entityTooLarge());
  }
  return Promise.resolve({
    body: req,
    mimeType,
    cacheControl: header(req, 'cache-control') ?? 'no-cache',
    userMetadata: metadataHeader !== undefined ? parseBase64Metadata(metadataHeader) : undefined,
    declaredLength,
  });
}

function multipartFile(
  req: IncomingMessage,
  contentType: string,
  limits: UploadLimits,
): Promise<IncomingFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { ...req.headers, 'content-type': contentType },
        limits: { fields: 10, files: 1, fileSize: limits.maxFileSize },
      });
    } catch (error) {
      reject(errors.noContentProvided(error instanceof Error ? error.message : undefined));
      return;
    }
    const fields = new Map<string, string>();
    let settled = false;
    const fail = (error: StorageError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      reject(closing(error));
    };

    parser.on('field', (name, value) => fields.set(name, value));
    parser.on('file', (_name, stream, info) => {
      if (settled) {
        stream.resume();
        return;
      }
      try {
        const mimeType = fields.get('contentType') || info.mimeType || 'application/octet-stream';
        checkAllowed(mimeType, limits);
        const rawMetadata = fields.get('metadata') ?? fields.get('userMetadata');
        const userMetadata = rawMetadata !== undefined ? parseJsonMetadata(rawMetadata) : undefined;
        const cacheTime = fields.get('cacheControl');
        // busboy truncates a part at `fileSize` and says so; the upload must fail, not store a prefix.
        // That can happen while the permission test still holds the stream: the error then waits in
        // the destroyed stream (and `body` below) for the pipeline to find it, and must not go
        // unhandled meanwhile.
        stream.on('error', () => undefined);
        stream.once('limit', () => stream.destroy(closing(errors.entityTooLarge())));
        // A form that ends inside the file part (a cut upload) is the client's error: busboy ends
        // the part with a plain Error, which becomes a 400 here instead of an internal failure.
        const body = new PassThrough();
        body.on('error', () => undefined);
        stream.on('error', (error) =>
          body.destroy(
            error instanceof StorageError ? error : closing(errors.noContentProvided(error.message)),
          ),
        );
        stream.pipe(body);
        settled = true;
        resolve({
          body,
          mimeType,
          cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache',
          userMetadata,
          declaredLength: undefined,
        });
      } catch (error) {
        stream.resume();
        fail(error as StorageError);
      }
    });
    parser.on('error', (error: Error) => fail(errors.noContentProvided(error.message)));
    parser.on('close', () => fail(errors.noContentProvided()));
    req.pipe(parser);
  });
}
