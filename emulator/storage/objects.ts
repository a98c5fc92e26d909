// Object routes (supabase/storage src/http/routes/object/*, src/storage/object.ts, uploader.ts).
// Reads, lists, deletes and moves run as the requester under RLS. An upload first runs its INSERT
// (or upsert) as the requester and rolls it back — storage-api's permission test — then streams the
// body to disk, and only then records the row as the storage admin, so a refused or cut upload leaves
// neither a row nor a file.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { header } from '../lib/http.ts';
import { ownerColumns, mustBeValidBucketName } from './buckets.ts';
import {
  type Call,
  type Reply,
  type StorageService,
  jsonBody,
  ok,
  optionalBoolean,
  optionalInteger,
  optionalString,
  requiredString,
} from './context.ts';
import type { Scope } from './db.ts';
import { errors } from './errors.ts';
import { incomingFile, isEmptyFolderPlaceholder, parseBase64Metadata } from './incoming.ts';
import { subjectOf } from './requester.ts';
import { transformationSegments, transformOfBody } from './transformations.ts';
import { serveObject, type StoredMetadata } from './serve.ts';
import { checkExpiresIn, signToken, verifyToken } from './signed-urls.ts';

const VALID_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;

export function mustBeValidKey(name: string): void {
  if (name.length === 0 || !VALID_KEY.test(name)) throw errors.invalidKey(name);
}

interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: (StoredMetadata & Record<string, unknown>) | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
}

/** The columns of storage-api's object schema (its serializer drops the rest, e.g. path_tokens). */
const OBJECT_COLUMNS =
  'id, name, bucket_id, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

export async function findObject(client: pg.PoolClient, bucket: string, name: string): Promise<ObjectRow> {
  const result = await client.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2 limit 1`,
    [bucket, name],
  );
  const row = result.rows[0];
  if (!row) throw errors.noSuchKey();
  return row;
}

interface BucketLimits {
  id: string;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
}

async function findBucketAsAdmin(service: StorageService, bucket: string): Promise<BucketLimits | undefined> {
  return service.db.asAdmin(async (client) => {
    const result = await client.query<BucketLimits>(
      'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
      [bucket],
    );
    return result.rows[0];
  });
}

// Uploads ------------------------------------------------------------------------------------------

interface UploadTarget {
  bucket: string;
  name: string;
  upsert: boolean;
  owner: string | undefined;
  /** The requester's scope, or undefined when a signed upload token already authorised it. */
  scope: Scope | undefined;
}

interface PermissionTest {
  bucket: string;
  name: string;
  owner: string | undefined;
  upsert: boolean;
  metadata: Record<string, unknown>;
  userMetadata: Record<string, unknown> | undefined;
}

/** storage-api's canUpload: the INSERT (or upsert) the upload will make, tried and rolled back. */
async function testUpload(service: StorageService, scope: Scope | undefined, test: PermissionTest) {
  const { owner, ownerId } = ownerColumns(test.owner);
  const values = [
    test.bucket,
    test.name,
    owner,
    ownerId,
    '1',
    JSON.stringify(test.metadata),
    test.userMetadata === undefined ? null : JSON.stringify(test.userMetadata),
  ];
  const insert = `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
                  values ($1, $2, $3, $4, $5, $6, $7)`;
  // An upsert returns the row, so it needs SELECT and UPDATE policies as well as INSERT.
  const sql = test.upsert
    ? `${insert} on conflict (name, bucket_id) do update set metadata = excluded.metadata,
         user_metadata = excluded.user_metadata, version = excluded.version, owner = excluded.owner,
         owner_id = excluded.owner_id returning *`
    : insert;
  await service.db.test(scope, (client) => client.query(sql, values));
}

/** Records a new version as the storage admin and deletes the version it replaces. */
async function recordVersion(
  service: StorageService,
  row: {
    bucket: string;
    name: string;
    owner: string | undefined;
    version: string;
    metadata: Record<string, unknown>;
    userMetadata: Record<string, unknown> | null | undefined;
  },
): Promise<ObjectRow> {
  const { owner, ownerId } = ownerColumns(row.owner);
  let saved: { row: ObjectRow; previous: string | null | undefined };
  try {
    saved = await service.db.asAdmin(async (client) => {
      // Serialises writers of one key (storage-api's waitObjectLock), so each learns which version
      // it replaced even when the row did not exist yet.
      await client.query("select pg_advisory_xact_lock(hashtextextended($1 || '/' || $2, 0))", [
        row.bucket,
        row.name,
      ]);
      const existing = await client.query<{ version: string | null }>(
        'select version from storage.objects where bucket_id = $1 and name = $2 for update',
        [row.bucket, row.name],
      );
      const result = await client.query<ObjectRow>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (name, bucket_id) do update set owner = excluded.owner, owner_id = excluded.owner_id,
           version = excluded.version, metadata = excluded.metadata, user_metadata = excluded.user_metadata,
           updated_at = now()
         returning ${OBJECT_COLUMNS}`,
        [
          row.bucket,
          row.name,
          owner,
          ownerId,
          row.version,
          JSON.stringify(row.metadata),
          row.userMetadata == null ? null : JSON.stringify(row.userMetadata),
        ],
      );
      const saved = result.rows[0];
      if (!saved) throw errors.internal('upsert returned no row');
      return { row: saved, previous: existing.rows[0]?.version };
    });
  } catch (error) {
    await service.files.remove(row.version);
    throw error;
  }
  if (saved.previous && saved.previous !== row.version) await service.files.remove(saved.previous);
  return saved.row;
}

async function receiveUpload(service: StorageService, call: Call, target: UploadTarget) {
  const bucket = await findBucketAsAdmin(service, target.bucket);
  if (!bucket) throw errors.noSuchBucket();
  const bucketLimit = bucket.file_size_limit === null ? Infinity : Number(bucket.file_size_limit);
  const maxFileSize = isEmptyFolderPlaceholder(target.name)
    ? 0
    : Math.min(service.fileSizeLimit, bucketLimit);
  const file = await incomingFile(call.req, {
    maxFileSize,
    allowedMimeTypes: bucket.allowed_mime_types,
    objectName: target.name,
  });
  mustBeValidKey(target.name);
  await testUpload(service, target.scope, {
    bucket: target.bucket,
    name: target.name,
    owner: target.owner,
    upsert: target.upsert,
    metadata: { mimetype: file.mimeType, contentLength: file.declaredLength },
    userMetadata: file.userMetadata,
  });

  const received = await service.files.receive(file.body, maxFileSize, call.signal);
  const version = randomUUID();
  try {
    await service.files.commit(received.tmp, version);
  } catch (error) {
    await service.files.discard(received.tmp);
    throw error;
  }
  return recordVersion(service, {
    bucket: target.bucket,
    name: target.name,
    owner: target.owner,
    version,
    // storage-api's uploader stores `{ ...userMetadata }`, so an upload without metadata has `{}`
    // (src/storage/uploader.ts), which GET /object/info/… answers as `metadata`.
    userMetadata: { ...file.userMetadata },
    metadata: {
      eTag: `"${received.md5}"`,
      size: received.size,
      mimetype: file.mimeType,
      cacheControl: file.cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: received.size,
      httpStatusCode: 200,
    },
  });
}

/** POST creates (or upserts with `x-upsert: true`); PUT always overwrites. */
export async function uploadObject(service: StorageService, call: Call): Promise<Reply> {
  const isPut = call.req.method === 'PUT';
  const upsert = isPut || header(call.req, 'x-upsert') === 'true';
  const row = await receiveUpload(service, call, {
    bucket: call.bucket,
    name: call.name,
    upsert,
    owner: subjectOf(call.requester),
    scope: call.scope(isPut ? 'storage.object.update' : 'storage.object.upload'),
  });
  return ok({ Id: row.id, Key: `${call.bucket}/${call.name}` });
}

export async function uploadWithSignedUrl(service: StorageService, call: Call): Promise<Reply> {
  const token = call.query.get('token');
  if (!token) throw errors.validation("querystring must have required property 'token'");
  const signed = await verifyToken(service.keys, token, 'upload', call.bucket, call.name);
  await receiveUpload(service, call, {
    bucket: call.bucket,
    name: call.name,
    upsert: signed.upsert === true,
    owner: signed.owner,
    scope: undefined,
  });
  return ok({ Key: `${call.bucket}/${call.name}` });
}

export async function createSignedUploadUrl(service: StorageService, call: Call): Promise<Reply> {
  mustBeValidBucketName(call.bucket);
  const owner = subjectOf(call.requester);
  const upsert = header(call.req, 'x-upsert') === 'true';
  const metadataHeader = header(call.req, 'x-metadata');
  const declared = Number(header(call.req, 'content-length'));
  await testUpload(service, call.scope('storage.object.sign_upload_url'), {
    bucket: call.bucket,
    name: call.name,
    owner,
    upsert,
    metadata: {
      mimetype: header(call.req, 'content-type'),
      contentLength: Number.isFinite(declared) ? declared : undefined,
    },
    userMetadata: metadataHeader !== undefined ? parseBase64Metadata(metadataHeader) : undefined,
  });
  const url = `${call.bucket}/${call.name}`;
  const token = await signToken(service.keys, 'upload', url, service.signedUploadExpiresIn, {
    owner,
    upsert,
  });
  return ok({ url: `/object/upload/sign/${url}?token=${token}`, token });
}

// Downloads ----------------------------------------------------------------------------------------

export function downloadParam(call: Call): string | null | undefined {
  return call.query.has('download') ? call.query.get('download') : undefined;
}

/**
 * Finds the object a download or info request names. storage-api skips RLS for public buckets, and
 * answers "bucket not found" to an anonymous caller asking a private one.
 */
export async function objectForRead(
  service: StorageService,
  call: Call,
  operation: string,
  publicOnly: boolean,
) {
  const bucket = await findBucketAsAdmin(service, call.bucket);
  if (publicOnly) {
    if (!bucket?.public) throw errors.noSuchBucket();
  } else {
    if (!call.requester.authenticated && !bucket?.public) throw errors.noSuchBucket();
    if (!bucket) throw errors.noSuchBucket();
  }
  mustBeValidKey(call.name);
  if (bucket.public) return service.db.asAdmin((client) => findObject(client, call.bucket, call.name));
  return service.db.asUser(call.scope(operation), (client) => findObject(client, call.bucket, call.name));
}

export async function downloadObject(service: StorageService, call: Call): Promise<void> {
  const object = await objectForRead(service, call, 'storage.object.get_authenticated', false);
  await serveObject(call.req, call.res, service.files, object, {
    download: downloadParam(call),
    objectName: call.name,
  });
}

export async function downloadPublicObject(service: StorageService, call: Call): Promise<void> {
  const object = await objectForRead(service, call, 'storage.object.get_public', true);
  await serveObject(call.req, call.res, service.files, object, {
    download: downloadParam(call),
    objectName: call.name,
  });
}

export async function downloadSignedObject(service: StorageService, call: Call): Promise<void> {
  const token = call.query.get('token');
  if (!token) throw errors.validation("querystring must have required property 'token'");
  const signed = await verifyToken(service.keys, token, 'download', call.bucket, call.name);
  const object = await service.db.asAdmin((client) => findObject(client, call.bucket, call.name));
  await serveObject(call.req, call.res, service.files, object, {
    download: downloadParam(call),
    expires: new Date(signed.exp * 1000),
    objectName: call.name,
  });
}

function infoOf(object: ObjectRow) {
  const metadata = object.metadata ?? {};
  const pick = (value: unknown) => (value === undefined ? null : value);
  return {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: object.bucket_id,
    size: pick(metadata.size),
    content_type: pick(metadata.mimetype),
    cache_control: pick(metadata.cacheControl),
    etag: pick(metadata.eTag),
    metadata: object.user_metadata,
    last_modified: object.updated_at,
    created_at: object.created_at,
  };
}

function infoHeaders(object: ObjectRow): Record<string, string> {
  const metadata = object.metadata ?? {};
  const headers: Record<string, string> = {};
  if (typeof metadata.eTag === 'string') headers.ETag = metadata.eTag;
  if (typeof metadata.cacheControl === 'string') headers['Cache-Control'] = metadata.cacheControl;
  if (typeof metadata.lastModified === 'string') {
    const date = new Date(metadata.lastModified);
    if (!Number.isNaN(date.getTime())) headers['Last-Modified'] = date.toUTCString();
  }
  return headers;
}

export async function objectInfo(service: StorageService, call: Call): Promise<Reply> {
  const object = await objectForRead(service, call, 'storage.object.info', false);
  return ok(infoOf(object), infoHeaders(object));
}

export async function publicObjectInfo(service: StorageService, call: Call): Promise<Reply> {
  const object = await objectForRead(service, call, 'storage.object.info_public', true);
  return ok(infoOf(object), infoHeaders(object));
}

// Signed download URLs -----------------------------------------------------------------------------

export async function createSignedUrl(service: StorageService, call: Call): Promise<Reply> {
  const body = await jsonBody(call);
  const expiresIn = checkExpiresIn(body.expiresIn);
  const transform = transformOfBody(body.transform);
  mustBeValidKey(call.name);
  await service.db.asUser(call.scope('storage.object.sign'), (client) =>
    findObject(client, call.bucket, call.name),
  );
  const url = `${call.bucket}/${call.name}`;
  // storage-api's getSignedURL route: the transformations ride in the token, and a token that has
  // some is a URL of the image renderer. (Its `format` claim is signed too; the renderer reads only
  // `transformations`, where a format other than `origin` is one of the segments.)
  const transformations = transformationSegments(transform ?? {}, true).join(',');
  const token = await signToken(service.keys, 'download', url, expiresIn, {
    transformations,
    format: transform?.format,
  });
  const route = transformations ? 'render/image' : 'object';
  return ok({ signedURL: `/${route}/sign/${url}?token=${token}` });
}

export async function createSignedUrls(service: StorageService, call: Call): Promise<Reply> {
  const body = await jsonBody(call);
  const expiresIn = checkExpiresIn(body.expiresIn);
  const paths = body.paths;
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string')) {
    throw errors.validation("body must have required property 'paths'");
  }
  const visible = await service.db.asUser(call.scope('storage.object.sign_many'), async (client) => {
    const result = await client.query<{ name: string }>(
      'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
      [call.bucket, paths],
    );
    return new Set(result.rows.map((r) => r.name));
  });
  const signed = await Promise.all(
    (paths as string[]).map(async (path) => {
      if (!visible.has(path)) {
        return {
          error: 'Either the object does not exist or you do not have access to it',
          path,
          signedURL: null,
        };
      }
      const url = `${call.bucket}/${path}`;
      const token = await signToken(service.keys, 'download', url, expiresIn);
      return { error: null, path, signedURL: `/object/sign/${url}?token=${token}` };
    }),
  );
  return ok(signed);
}

// Listing ------------------------------------------------------------------------------------------

const LIST_SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

export async function listObjects(service: StorageService, call: Call): Promise<Reply> {
  mustBeValidBucketName(call.bucket);
  const body = await jsonBody(call);
  let prefix = requiredString(body, 'prefix');
  const limit = optionalInteger(body, 'limit', 1) ?? 100;
  const offset = optionalInteger(body, 'offset', 0) ?? 0;
  const search = optionalString(body, 'search') ?? '';
  let column = 'name';
  let order = 'asc';
  if (body.sortBy !== undefined && body.sortBy !== null) {
    if (typeof body.sortBy !== 'object' || Array.isArray(body.sortBy)) {
      throw errors.validation('body/sortBy must be object');
    }
    const sortBy = body.sortBy as Record<string, unknown>;
    column = optionalString(sortBy, 'column', 'body/sortBy') ?? 'name';
    order = optionalString(sortBy, 'order', 'body/sortBy') ?? 'asc';
    if (!LIST_SORT_COLUMNS.has(column) || (order !== 'asc' && order !== 'desc')) {
      throw errors.validation('body/sortBy/column must be equal to one of the allowed values');
    }
  }
  if (prefix.length > 0 && !prefix.endsWith('/')) prefix = `${prefix}/`;
  const rows = await service.db.asUser(call.scope('storage.object.list'), async (client) => {
    const result = await client.query('select * from storage.search($1, $2, $3, $4, $5, $6, $7, $8)', [
      prefix,
      call.bucket,
      limit,
      (prefix + search).split('/').length,
      offset,
      search,
      column,
      order,
    ]);
    return result.rows;
  });
  return ok(rows);
}

// Move, copy, delete -------------------------------------------------------------------------------

function moveOrCopyBody(body: Record<string, unknown>) {
  const bucketId = requiredString(body, 'bucketId');
  const sourceKey = requiredString(body, 'sourceKey');
  const destinationKey = requiredString(body, 'destinationKey');
  const destinationBucket = optionalString(body, 'destinationBucket') || bucketId;
  mustBeValidBucketName(bucketId);
  mustBeValidBucketName(destinationBucket);
  return { bucketId, sourceKey, destinationKey, destinationBucket };
}

export async function moveObject(service: StorageService, call: Call): Promise<Reply> {
  const { bucketId, sourceKey, destinationKey, destinationBucket } = moveOrCopyBody(await jsonBody(call));
  mustBeValidKey(destinationKey);
  const { owner, ownerId } = ownerColumns(subjectOf(call.requester));
  // The body keeps its version (and so its file): a move is the row's UPDATE, checked by policies.
  const moved = await service.db.asUser(call.scope('storage.object.move'), async (client) => {
    const source = await findObject(client, bucketId, sourceKey);
    if (bucketId === destinationBucket && sourceKey === destinationKey) return source;
    const result = await client.query<ObjectRow>(
      `update storage.objects set bucket_id = $3, name = $4, owner = $5, owner_id = $6, updated_at = now()
        where bucket_id = $1 and name = $2 returning ${OBJECT_COLUMNS}`,
      [bucketId, sourceKey, destinationBucket, destinationKey, owner, ownerId],
    );
    const row = result.rows[0];
    if (!row) throw errors.noSuchKey();
    return row;
  });
  return ok({ message: 'Successfully moved', Id: moved.id, Key: moved.name });
}

export async function copyObject(service: StorageService, call: Call): Promise<Reply> {
  const body = await jsonBody(call);
  const { bucketId, sourceKey, destinationKey, destinationBucket } = moveOrCopyBody(body);
  const copyMetadata = optionalBoolean(body, 'copyMetadata') ?? true;
  const upsert = header(call.req, 'x-upsert') === 'true';
  const metadataHeader = header(call.req, 'x-metadata');
  const requested =
    body.metadata !== null && typeof body.metadata === 'object' && !Array.isArray(body.metadata)
      ? (body.metadata as Record<string, unknown>)
      : {};
  mustBeValidKey(destinationKey);
  const owner = subjectOf(call.requester);
  const scope = call.scope('storage.object.copy');

  const source = await service.db.asUser(scope, (client) => findObject(client, bucketId, sourceKey));
  const metadata: Record<string, unknown> = { ...(source.metadata ?? {}) };
  if (!copyMetadata) {
    if (typeof requested.cacheControl === 'string') metadata.cacheControl = requested.cacheControl;
    if (typeof requested.mimetype === 'string') metadata.mimetype = requested.mimetype;
  }
  const userMetadata = copyMetadata
    ? source.user_metadata
    : metadataHeader !== undefined
      ? parseBase64Metadata(metadataHeader)
      : undefined;
  await testUpload(service, scope, {
    bucket: destinationBucket,
    name: destinationKey,
    owner,
    upsert,
    metadata,
    userMetadata: userMetadata ?? undefined,
  });
  const copy = await service.files.duplicate(source.version);
  if (!copy) throw errors.noSuchKey();
  const version = randomUUID();
  try {
    await service.files.commit(copy.tmp, version);
  } catch (error) {
    await service.files.discard(copy.tmp);
    throw error;
  }
  const row = await recordVersion(service, {
    bucket: destinationBucket,
    name: destinationKey,
    owner,
    version,
    userMetadata,
    metadata: { ...metadata, lastModified: new Date().toISOString() },
  });
  return ok({ Id: row.id, Key: `${destinationBucket}/${destinationKey}`, ...row });
}

export async function removeObjects(service: StorageService, call: Call): Promise<Reply> {
  mustBeValidBucketName(call.bucket);
  const body = await jsonBody(call);
  const prefixes = body.prefixes;
  if (!Array.isArray(prefixes)) throw errors.validation("body must have required property 'prefixes'");
  if (prefixes.length === 0) throw errors.validation('body/prefixes must NOT have fewer than 1 items');
  if (prefixes.some((p) => typeof p !== 'string')) throw errors.validation('body/prefixes/0 must be string');
  const deleted = await service.db.asUser(call.scope('storage.object.delete_many'), async (client) => {
    const result = await client.query<ObjectRow>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
      [call.bucket, prefixes],
    );
    return result.rows;
  });
  for (const row of deleted) await service.files.remove(row.version);
  return ok(deleted);
}

export async function removeObject(service: StorageService, call: Call): Promise<Reply> {
  mustBeValidKey(call.name);
  await service.db.asAdmin((client) => findObject(client, call.bucket, call.name));
  const deleted = await service.db.asUser(call.scope('storage.object.delete'), async (client) => {
    const result = await client.query<{ version: string | null }>(
      'delete from storage.objects where bucket_id = $1 and name = $2 returning version',
      [call.bucket, call.name],
    );
    return result.rows[0];
  });
  if (!deleted) throw errors.accessDenied('Access denied');
  await service.files.remove(deleted.version);
  return ok({ message: 'Successfully deleted' });
}
