// POST /object/list-v2/{bucket}: storage-api's cursor-paged listing (supabase/storage
// src/http/routes/object/listObjectsV2.ts, src/storage/object.ts listObjectsV2, and
// src/storage/database/pg.ts, whose SQL this follows). Without `with_delimiter` every object under the
// prefix is listed flat, full names; with it, one level: the objects directly under the prefix and a
// folder entry (`{id: null, name: "prefix/sub/"}`) for each deeper path. The caller's own query, so
// the policies on storage.objects decide what it sees.
import { mustBeValidBucketName } from './buckets.ts';
import {
  type Call,
  jsonBody,
  ok,
  optionalBoolean,
  optionalInteger,
  optionalString,
  type Reply,
} from './context.ts';
import type { StorageService } from './context.ts';
import { errors } from './errors.ts';

type SortColumn = 'name' | 'updated_at' | 'created_at';
type SortOrder = 'asc' | 'desc';

interface Cursor {
  startAfter: string;
  sortOrder?: string;
  sortColumn?: string;
  sortColumnAfter?: string;
}

// The continuation token's line keys (object.ts CONTINUATION_TOKEN_PART_MAP).
const CURSOR_PARTS: Record<string, keyof Cursor> = {
  l: 'startAfter',
  o: 'sortOrder',
  c: 'sortColumn',
  a: 'sortColumnAfter',
};

export function encodeCursor(cursor: Cursor): string {
  const lines: string[] = [];
  for (const [key, field] of Object.entries(CURSOR_PARTS)) {
    if (cursor[field]) lines.push(`${key}:${cursor[field]}`);
  }
  return Buffer.from(lines.join('\n')).toString('base64');
}

export function decodeCursor(token: string): Cursor {
  const cursor: Cursor = { startAfter: '', sortOrder: 'asc' };
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const match = /^(\S):(.*)/.exec(line);
    const field = match ? CURSOR_PARTS[match[1] ?? ''] : undefined;
    if (!match || !field) throw errors.invalidParameter('continuation token');
    cursor[field] = match[2] ?? '';
  }
  return cursor;
}

interface ListedRow {
  id: string | null;
  name: string;
  updated_at: Date | null;
  created_at: Date | null;
  last_accessed_at: Date | null;
  metadata: unknown;
}

function sortBody(body: Record<string, unknown>): { column?: SortColumn; order?: SortOrder } {
  const raw = body.sortBy;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw errors.validation('body/sortBy must be object');
  const sortBy = raw as Record<string, unknown>;
  const column = optionalString(sortBy, 'column', 'body/sortBy');
  if (column === undefined) throw errors.validation("body/sortBy must have required property 'column'");
  if (column !== 'name' && column !== 'updated_at' && column !== 'created_at') {
    throw errors.validation('body/sortBy/column must be equal to one of the allowed values');
  }
  const order = optionalString(sortBy, 'order', 'body/sortBy');
  if (order !== undefined && order !== 'asc' && order !== 'desc') {
    throw errors.validation('body/sortBy/order must be equal to one of the allowed values');
  }
  return { column, order };
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listObjectsV2(service: StorageService, call: Call): Promise<Reply> {
  mustBeValidBucketName(call.bucket);
  const body = await jsonBody(call);
  const prefix = optionalString(body, 'prefix') ?? '';
  const requested = optionalInteger(body, 'limit', 1);
  const cursorToken = optionalString(body, 'cursor');
  const withDelimiter = optionalBoolean(body, 'with_delimiter') ?? false;
  const sortBy = sortBody(body);
  if (prefix.includes('\0')) throw errors.invalidParameter('prefix');

  const limit = Math.min(requested || 1000, 1000);
  const cursor = cursorToken ? decodeCursor(cursorToken) : undefined;
  const order: SortOrder = (cursor?.sortOrder ?? sortBy.order) === 'desc' ? 'desc' : 'asc';
  const requestedColumn = cursor?.sortColumn ?? sortBy.column;
  const column: SortColumn =
    requestedColumn === 'updated_at' || requestedColumn === 'created_at' ? requestedColumn : 'name';
  const after = cursor?.startAfter ?? '';
  const afterTime = cursor?.sortColumnAfter ?? '';

  // One level below the prefix: a deeper name becomes the folder `prefix + segment + '/'`. A folder
  // has no timestamps when listed by name (storage.list_objects_with_delimiter) and its oldest
  // object's creation time as both when listed by time (storage.search_by_timestamp).
  const entries = withDelimiter
    ? `select name, null::uuid as id, min(created_at) as updated_at, min(created_at) as created_at,
              null::timestamptz as last_accessed_at, null::jsonb as metadata
         from (select substr(name, 1, $4::int + strpos(substr(name, $4::int + 1), '/')) as name, updated_at, created_at
                 from storage.objects
                where bucket_id = $1 and name like $2 and strpos(substr(name, $4::int + 1), '/') > 0) deeper
        group by name
       union all
       select name, id, updated_at, created_at, last_accessed_at, metadata
         from storage.objects
        where bucket_id = $1 and name like $2 and strpos(substr(name, $4::int + 1), '/') = 0`
    : `select name, id, updated_at, created_at, last_accessed_at, metadata
         from storage.objects where bucket_id = $1 and name like $2`;
  const values: unknown[] = [call.bucket, `${escapeLike(prefix)}%`, limit + 1];
  if (withDelimiter) values.push(prefix.length);
  const operator = order === 'asc' ? '>' : '<';
  let page = '';
  if (after !== '' && column !== 'name' && afterTime !== '') {
    values.push(afterTime, after);
    page = `where (date_trunc('milliseconds', ${column}), name collate "C") ${operator}
                  (coalesce(nullif($${values.length - 1}, '')::timestamptz, 'epoch'), $${values.length}::text collate "C")`;
  } else if (after !== '') {
    values.push(after);
    page = `where name collate "C" ${operator} $${values.length}::text collate "C"`;
  }
  const orderBy =
    column === 'name' ? `name collate "C" ${order}` : `${column} ${order}, name collate "C" ${order}`;

  const rows = await service.db.asUser(call.scope('storage.object.list'), async (client) => {
    const result = await client.query<ListedRow>(
      `select * from (${entries}) listed ${page} order by ${orderBy} limit $3`,
      values,
    );
    return result.rows;
  });

  const hasNext = rows.length > limit;
  const shown = hasNext ? rows.slice(0, limit) : rows;
  const level = prefix === '' ? 1 : prefix.split('/').length;
  const folders: Array<Record<string, unknown>> = [];
  const objects: Array<Record<string, unknown>> = [];
  for (const row of shown) {
    const entry = {
      id: row.id,
      name: row.name,
      metadata: row.metadata,
      updated_at: column === 'name' && row.id === null ? null : row.updated_at,
      created_at: column === 'name' && row.id === null ? null : row.created_at,
      last_accessed_at: row.last_accessed_at,
    };
    if (!withDelimiter) {
      objects.push(entry);
      continue;
    }
    // storage.search_v2 names every row's segment at the listed level `key`, folders too.
    const keyed = { key: row.name.split('/')[level - 1] ?? '', ...entry };
    (row.id === null ? folders : objects).push(keyed);
  }
  const last = shown[shown.length - 1];
  if (!hasNext || !last) return ok({ hasNext, folders, objects });
  const lastTime = column === 'name' ? null : last[column];
  return ok({
    hasNext,
    nextCursor: encodeCursor({
      startAfter: last.name,
      sortOrder: cursor?.sortOrder ?? sortBy.order,
      sortColumn: requestedColumn,
      sortColumnAfter: lastTime ? lastTime.toISOString() : undefined,
    }),
    nextCursorKey: last.name,
    folders,
    objects,
  });
}
