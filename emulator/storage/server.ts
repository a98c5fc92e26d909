// The storage-api-compatible HTTP service behind the gateway at /storage/v1: routing, the requester
// of each route (JWT required, optional, or none for public and signed URLs), and errors rendered
// as storage-api renders them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type pg from 'pg';
import type { SigningKeys } from '../keys.ts';
import { BodyTooLarge } from '../lib/http.ts';
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from './buckets.ts';
import type { Call, Reply, StorageService } from './context.ts';
import { StorageDb } from './db.ts';
import { asStorageError, errors, routeNotFound, StorageError } from './errors.ts';
import { ObjectFiles } from './files.ts';
import { listObjectsV2 } from './list-v2.ts';
import {
  copyObject,
  createSignedUploadUrl,
  createSignedUrl,
  createSignedUrls,
  downloadObject,
  downloadPublicObject,
  downloadSignedObject,
  listObjects,
  moveObject,
  objectInfo,
  publicObjectInfo,
  removeObject,
  removeObjects,
  uploadObject,
  uploadWithSignedUrl,
} from './objects.ts';
import { renderAuthenticatedImage, renderPublicImage, renderSignedImage } from './render.ts';
import { ANONYMOUS, identify } from './requester.ts';

/** The CLI's default `[storage] file_size_limit` ("50MiB"). */
export const DEFAULT_FILE_SIZE_LIMIT = 50 * 1024 * 1024;
/** Hosted projects' signed upload URLs are valid for two hours. */
export const SIGNED_UPLOAD_EXPIRES_IN = 2 * 60 * 60;

/**
 * `required`: a valid JWT (or API key); `optional`: anonymous when missing or invalid; `none`: the
 * route authorises itself (public buckets, signed URL tokens); `service_role`: storage-api's
 * role-enforced routes.
 */
type Access = 'required' | 'optional' | 'none' | 'service_role';

type Handler = (service: StorageService, call: Call) => Promise<Reply | void>;

interface Route {
  method: string | string[];
  pattern: RegExp;
  access: Access;
  handler: Handler;
}

const NAME = '(.+)';
const BUCKET = '([^/]+)';
const route = (method: Route['method'], pattern: string, access: Access, handler: Handler): Route => ({
  method,
  pattern: new RegExp(`^${pattern}$`),
  access,
  handler,
});

// Order matters where storage-api's router prefers static segments (`/object/public/…` before
// `/object/:bucket/*`).
const ROUTES: Route[] = [
  route('GET', '/bucket/?', 'required', listBuckets),
  route('POST', '/bucket/?', 'required', createBucket),
  route('POST', `/bucket/${BUCKET}/empty/?`, 'service_role', emptyBucket),
  route('GET', `/bucket/${BUCKET}/?`, 'required', getBucket),
  route('PUT', `/bucket/${BUCKET}/?`, 'required', updateBucket),
  route('DELETE', `/bucket/${BUCKET}/?`, 'required', deleteBucket),

  route('POST', `/object/list/${BUCKET}/?`, 'required', listObjects),
  route('POST', `/object/list-v2/${BUCKET}/?`, 'required', listObjectsV2),
  route('POST', '/object/move/?', 'required', moveObject),
  route('POST', '/object/copy/?', 'required', copyObject),
  route('POST', `/object/sign/${BUCKET}/?`, 'required', createSignedUrls),
  route('POST', `/object/sign/${BUCKET}/${NAME}`, 'required', createSignedUrl),
  route('GET', `/object/sign/${BUCKET}/${NAME}`, 'none', downloadSignedObject),
  route('POST', `/object/upload/sign/${BUCKET}/${NAME}`, 'required', createSignedUploadUrl),
  route('PUT', `/object/upload/sign/${BUCKET}/${NAME}`, 'none', uploadWithSignedUrl),
  route(['GET', 'HEAD'], `/object/public/${BUCKET}/${NAME}`, 'none', downloadPublicObject),
  route('GET', `/object/info/public/${BUCKET}/${NAME}`, 'none', publicObjectInfo),
  route('GET', `/object/info/authenticated/${BUCKET}/${NAME}`, 'required', objectInfo),
  route('GET', `/object/info/${BUCKET}/${NAME}`, 'optional', objectInfo),
  route(['GET', 'HEAD'], `/object/authenticated/${BUCKET}/${NAME}`, 'required', downloadObject),
  route('DELETE', `/object/${BUCKET}/?`, 'required', removeObjects),
  route(['GET', 'HEAD'], `/object/${BUCKET}/${NAME}`, 'optional', downloadObject),
  route(['POST', 'PUT'], `/object/${BUCKET}/${NAME}`, 'required', uploadObject),
  route('DELETE', `/object/${BUCKET}/${NAME}`, 'required', removeObject),

  route(
    ['GET', 'HEAD'],
    `/render/image/authenticated/${BUCKET}/${NAME}`,
    'required',
    renderAuthenticatedImage,
  ),
  route(['GET', 'HEAD'], `/render/image/public/${BUCKET}/${NAME}`, 'none', renderPublicImage),
  route(['GET', 'HEAD'], `/render/image/sign/${BUCKET}/${NAME}`, 'none', renderSignedImage),
];

function decode(part: string | undefined): string {
  if (part === undefined) return '';
  try {
    return decodeURIComponent(part);
  } catch {
    throw errors.invalidKey(part);
  }
}

function headersForSql(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function sendReply(res: ServerResponse, reply: Reply): void {
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...reply.headers,
  });
  res.end(payload);
}

// A refused request's body up to this size is read before the answer, so the connection stays usable
// and a client still writing it is not cut off mid-write (EPIPE) by the connection closing.
const DRAIN_BEFORE_ANSWER_BYTES = 1024 * 1024;

/**
 * Answers an error. A small body not yet read is read first; a larger one is left, and the connection
 * is closed after the answer.
 */
function sendError(req: IncomingMessage, res: ServerResponse, error: StorageError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const length = Number(req.headers['content-length']);
  if (!req.complete && !req.readableEnded && length <= DRAIN_BEFORE_ANSWER_BYTES) {
    req.unpipe();
    req.once('end', () => sendError(req, res, error));
    req.once('error', () => res.destroy());
    req.resume();
    return;
  }
  const unread = !req.complete;
  sendReply(res, {
    status: error.httpStatus,
    body: error.body(),
    headers: unread || error.closeConnection ? { Connection: 'close' } : undefined,
  });
  if (unread) {
    // Let the client read the answer, then drop whatever it is still sending.
    req.unpipe();
    req.resume();
    const timer = setTimeout(() => req.destroy(), 3000);
    timer.unref();
    res.once('finish', () => {
      if (req.complete) clearTimeout(timer);
    });
  }
}

export interface StorageOptions {
  pool: pg.Pool;
  keys: SigningKeys;
  dataDir: string;
  fileSizeLimit?: number;
  signedUploadExpiresIn?: number;
  log?: (line: string) => void;
}

export interface Storage {
  service: StorageService;
  handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void>;
}

export async function createStorage(options: StorageOptions): Promise<Storage> {
  const files = new ObjectFiles(path.join(options.dataDir, 'storage'));
  await files.prepare();
  const db = new StorageDb(options.pool);
  const removed = await files.collectGarbage(async (versions) => {
    const { rows } = await options.pool.query<{ version: string }>(
      'select version from storage.objects where version = any($1::text[])',
      [versions],
    );
    return new Set(rows.map((r) => r.version));
  });
  if (removed > 0) options.log?.(`storage: removed ${removed} file(s) no object refers to`);
  const service: StorageService = {
    db,
    files,
    keys: options.keys,
    fileSizeLimit: options.fileSizeLimit ?? DEFAULT_FILE_SIZE_LIMIT,
    signedUploadExpiresIn: options.signedUploadExpiresIn ?? SIGNED_UPLOAD_EXPIRES_IN,
  };

  async function handle(req: IncomingMessage, res: ServerResponse, urlPath: string, query: URLSearchParams) {
    const method = req.method ?? 'GET';
    const abort = new AbortController();
    req.once('aborted', () => abort.abort());
    req.on('error', () => abort.abort());
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    try {
      let found: Route | undefined;
      let groups: string[] = [];
      for (const candidate of ROUTES) {
        const methods = Array.isArray(candidate.method) ? candidate.method : [candidate.method];
        const match = methods.includes(method) ? candidate.pattern.exec(urlPath) : null;
        if (match) {
          found = candidate;
          groups = [...match];
          break;
        }
      }
      if (!found) {
        const search = query.toString();
        const { status, body } = routeNotFound(method, `${urlPath}${search ? `?${search}` : ''}`);
        sendReply(res, { status, body });
        return;
      }
      let requester = ANONYMOUS;
      if (found.access !== 'none') {
        requester = await identify(options.keys, req, found.access === 'optional' ? 'optional' : 'required');
      }
      if (found.access === 'service_role' && requester.role !== 'service_role') {
        throw errors.accessDeniedStrict('Access denied: Invalid role');
      }
      const headers = headersForSql(req);
      const bucket = decode(groups[1]);
      const name = decode(groups[2]);
      // storage-api's key and bucket-name patterns (src/storage/limits.ts) have no control
      // characters; PostgreSQL could not store a NUL anyway.
      if (bucket.includes('\u0000')) throw errors.invalidBucketName();
      if (name.includes('\u0000')) throw errors.invalidKey(name);
      const call: Call = {
        req,
        res,
        query,
        bucket,
        name,
        requester,
        signal: abort.signal,
        scope: (operation) => ({ requester, operation, method, path: urlPath, headers }),
      };
      const reply = await found.handler(service, call);
      if (reply) sendReply(res, reply);
    } catch (error) {
      if (abort.signal.aborted && !(error instanceof StorageError)) {
        // The client is gone (a cut upload or download): nobody to answer.
        res.destroy();
        return;
      }
      const known =
        asStorageError(error) ??
        (error instanceof BodyTooLarge ? errors.entityTooLarge('request') : undefined);
      if (!known) options.log?.(`storage: ${method} ${urlPath} failed: ${String(error)}`);
      sendError(req, res, known ?? errors.internal());
    }
  }

  return { service, handle };
}
