// Bucket routes (supabase/storage src/http/routes/bucket/*, src/storage/storage.ts): every statement
// runs as the requester, so on a hosted project and here alike it is the policies on storage.buckets
// that let a user create or see a bucket — service_role passes because it bypasses RLS.
import { errors, StorageError } from './errors.ts';
import {
  type Call,
  type Reply,
  type StorageService,
  jsonBody,
  ok,
  optionalBoolean,
  optionalInteger,
  optionalString,
} from './context.ts';
import { subjectOf } from './requester.ts';

const BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isValidBucketName(name: string): boolean {
  return name.length > 0 && name.length < 101 && BUCKET_NAME.test(name);
}

export function mustBeValidBucketName(name: string): void {
  if (!isValidBucketName(name)) throw errors.invalidBucketName();
}

export function ownerColumns(sub: string | undefined): { owner: string | null; ownerId: string | null } {
  return { owner: sub && UUID.test(sub) ? sub : null, ownerId: sub ?? null };
}

/** `20MB`, `1.5GB`, `300KB`, `12B` (decimal units, like storage-api's parseFileSizeToBytes). */
export function parseFileSize(value: string): number {
  const match = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
  if (!match) throw errors.invalidFileSizeLimit();
  const amount = Number(Number(match[1]).toPrecision(3));
  const unit = (match[2] ?? '').toUpperCase();
  const factor = unit === 'GB' ? 1e9 : unit === 'MB' ? 1e6 : unit === 'KB' ? 1e3 : 1;
  return amount * factor;
}

const MIME_PATTERN = /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/;

function fileSizeLimitOf(service: StorageService, value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  let bytes: number;
  if (typeof value === 'number') bytes = value;
  else if (typeof value === 'string') bytes = parseFileSize(value);
  else throw errors.validation('body/file_size_limit must be integer,string,null');
  if (!Number.isFinite(bytes) || bytes < 0) throw errors.invalidFileSizeLimit();
  if (bytes > service.fileSizeLimit) throw errors.entityTooLarge();
  return Math.floor(bytes);
}

function allowedMimeTypesOf(value: unknown): string[] | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw errors.validation('body/allowed_mime_types must be array');
  }
  const types = (value as string[]).filter((v) => v !== '');
  for (const type of types) {
    if (type.length > 1000 || !MIME_PATTERN.test(type)) throw errors.invalidMimeType(type);
  }
  return types;
}

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  created_at: Date;
  updated_at: Date;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
  type?: string;
}

/** int8 arrives as a string from pg; storage-api's schema serialises it as an integer. */
function present(row: BucketRow) {
  return { ...row, file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit) };
}

const SORT_COLUMNS = new Set(['id', 'name', 'created_at', 'updated_at']);

export async function listBuckets(service: StorageService, call: Call): Promise<Reply> {
  const q = Object.fromEntries(call.query);
  const limit = optionalInteger(q, 'limit', 1, 'querystring');
  const offset = optionalInteger(q, 'offset', 0, 'querystring');
  const search = optionalString(q, 'search', 'querystring');
  const sortColumn = optionalString(q, 'sortColumn', 'querystring');
  const sortOrder = optionalString(q, 'sortOrder', 'querystring');
  if (sortColumn !== undefined && !SORT_COLUMNS.has(sortColumn)) {
    throw errors.validation('querystring/sortColumn must be equal to one of the allowed values');
  }
  if (sortOrder !== undefined && sortOrder !== 'asc' && sortOrder !== 'desc') {
    throw errors.validation('querystring/sortOrder must be equal to one of the allowed values');
  }
  const values: unknown[] = [];
  let sql =
    'select id, name, owner, public, created_at, updated_at, file_size_limit, allowed_mime_types, type from storage.buckets';
  if (search) {
    values.push(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    sql += ` where name ilike $${values.length}`;
  }
  if (sortColumn) sql += ` order by ${sortColumn} ${sortOrder === 'desc' ? 'desc' : 'asc'}`;
  if (limit !== undefined) {
    values.push(limit);
    sql += ` limit $${values.length}`;
  }
  if (offset !== undefined) {
    values.push(offset);
    sql += ` offset $${values.length}`;
  }
  const rows = await service.db.asUser(call.scope('storage.bucket.list'), async (client) => {
    const result = await client.query<BucketRow>(sql, values);
    return result.rows;
  });
  return ok(rows.map(present));
}

export async function getBucket(service: StorageService, call: Call): Promise<Reply> {
  // GET /bucket/{id} selects no `type`, where the list does (src/http/routes/bucket/getBucket.ts).
  const row = await service.db.asUser(call.scope('storage.bucket.get'), async (client) => {
    const result = await client.query<BucketRow>(
      `select id, name, owner, public, created_at, updated_at, file_size_limit, allowed_mime_types
         from storage.buckets where id = $1 limit 1`,
      [call.bucket],
    );
    return result.rows[0];
  });
  if (!row) throw errors.noSuchBucket();
  return ok(present(row));
}

export async function createBucket(service: StorageService, call: Call): Promise<Reply> {
  const body = await jsonBody(call);
  const name = optionalString(body, 'name');
  if (name === undefined) throw errors.validation("body must have required property 'name'");
  const id = optionalString(body, 'id') || name;
  const isPublic = optionalBoolean(body, 'public') ?? false;
  const type = optionalString(body, 'type');
  if (name.trim() !== name) throw errors.invalidBucketName();
  mustBeValidBucketName(name);
  mustBeValidBucketName(id);
  if (type !== undefined && type !== 'STANDARD') {
    throw new StorageError(
      'FeatureNotEnabled',
      409,
      `The feature ${type === 'ANALYTICS' ? 'iceberg_catalog' : type.toLowerCase()} is not enabled for this resource`,
    );
  }
  const fileSizeLimit = fileSizeLimitOf(service, body.file_size_limit);
  const allowedMimeTypes = allowedMimeTypesOf(body.allowed_mime_types);
  const { owner, ownerId } = ownerColumns(subjectOf(call.requester));
  try {
    await service.db.asUser(call.scope('storage.bucket.create'), (client) =>
      client.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
         values ($1, $2, $3, $4, $5, $6, $7, 'STANDARD')`,
        [id, name, owner, ownerId, isPublic, fileSizeLimit ?? null, allowedMimeTypes ?? null],
      ),
    );
  } catch (error) {
    if (error instanceof StorageError && error.code === 'ResourceAlreadyExists')
      throw errors.bucketAlreadyExists();
    throw error;
  }
  return ok({ name });
}

export async function updateBucket(service: StorageService, call: Call): Promise<Reply> {
  mustBeValidBucketName(call.bucket);
  const body = await jsonBody(call);
  const changes: Array<[string, unknown]> = [];
  const isPublic = optionalBoolean(body, 'public');
  if (isPublic !== undefined) changes.push(['public', isPublic]);
  const fileSizeLimit = fileSizeLimitOf(service, body.file_size_limit);
  if (fileSizeLimit !== undefined) changes.push(['file_size_limit', fileSizeLimit]);
  const allowedMimeTypes = allowedMimeTypesOf(body.allowed_mime_types);
  if (allowedMimeTypes !== undefined) changes.push(['allowed_mime_types', allowedMimeTypes]);
  if (changes.length === 0) throw errors.noContentProvided();
  const set = changes.map(([column], i) => `${column} = $${i + 2}`).join(', ');
  const updated = await service.db.asUser(call.scope('storage.bucket.update'), async (client) => {
    const result = await client.query(`update storage.buckets set ${set}, updated_at = now() where id = $1`, [
      call.bucket,
      ...changes.map(([, value]) => value),
    ]);
    return result.rowCount ?? 0;
  });
  if (updated === 0) throw errors.noSuchBucket();
  return ok({ message: 'Successfully updated' });
}

export async function deleteBucket(service: StorageService, call: Call): Promise<Reply> {
  // storage-api looks the bucket up and counts its objects as its superuser, then deletes as the user.
  const state = await service.db.asAdmin(async (client) => {
    const bucket = await client.query('select 1 from storage.buckets where id = $1', [call.bucket]);
    if (bucket.rowCount === 0) return 'missing';
    const objects = await client.query('select 1 from storage.objects where bucket_id = $1 limit 1', [
      call.bucket,
    ]);
    return objects.rowCount === 0 ? 'empty' : 'not-empty';
  });
  if (state === 'missing') throw errors.noSuchBucket();
  if (state === 'not-empty') throw errors.bucketNotEmpty();
  const deleted = await service.db.asUser(call.scope('storage.bucket.delete'), async (client) => {
    const result = await client.query('delete from storage.buckets where id = $1', [call.bucket]);
    return result.rowCount ?? 0;
  });
  if (deleted === 0) throw errors.noSuchBucket();
  return ok({ message: 'Successfully deleted' });
}

export async function emptyBucket(service: StorageService, call: Call): Promise<Reply> {
  const exists = await service.db.asUser(call.scope('storage.bucket.empty'), async (client) => {
    const result = await client.query('select 1 from storage.buckets where id = $1', [call.bucket]);
    return (result.rowCount ?? 0) > 0;
  });
  if (!exists) throw errors.noSuchBucket();
  // storage-api queues this and deletes as its superuser; here it happens before the answer.
  const versions = await service.db.asAdmin(async (client) => {
    const result = await client.query<{ version: string | null }>(
      'delete from storage.objects where bucket_id = $1 returning version',
      [call.bucket],
    );
    return result.rows.map((r) => r.version);
  });
  for (const version of versions) await service.files.remove(version);
  return ok({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
}
