// Every JSON answer of the storage API has the fields storage-api's routes send, no more and no
// fewer (supabase/storage src/http/routes/bucket/*.ts, src/http/routes/object/*.ts,
// src/storage/renderer/info.ts, src/storage/uploader.ts, src/storage/schemas/bucket.ts).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backend } from '../../tests/support/backend.ts';

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const key = backend().serviceRoleKey;
  const res = await fetch(`${backend().apiUrl}/storage/v1${path}`, {
    method,
    headers: {
      apikey: key,
      Authorization: `Bearer ${key}`,
      ...(body !== undefined && typeof body !== 'string' ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const keys = (value: unknown) => Object.keys(value as Record<string, unknown>).sort();

const BUCKET_FIELDS = [
  'id',
  'name',
  'owner',
  'public',
  'created_at',
  'updated_at',
  'file_size_limit',
  'allowed_mime_types',
];

describe('storage JSON shapes', () => {
  it('buckets: the list carries `type`, a single bucket does not', async () => {
    const id = `shapes-${randomUUID().slice(0, 8)}`;
    expect((await call('POST', '/bucket', { name: id })).body).toEqual({ name: id });
    const one = await call('GET', `/bucket/${id}`);
    expect(keys(one.body)).toEqual([...BUCKET_FIELDS].sort());
    const list = await call('GET', `/bucket?search=${id}`);
    const listed = (list.body as unknown as Array<Record<string, unknown>>)[0];
    expect(keys(listed)).toEqual([...BUCKET_FIELDS, 'type'].sort());
    expect((await call('PUT', `/bucket/${id}`, { public: false })).body).toEqual({
      message: 'Successfully updated',
    });
  });

  it('objects: upload, info, list, sign, move and delete', async () => {
    const bucket = `shapes-${randomUUID().slice(0, 8)}`;
    await call('POST', '/bucket', { name: bucket });
    const upload = await call('POST', `/object/${bucket}/f/a.txt`, 'hello', { 'Content-Type': 'text/plain' });
    expect(keys(upload.body)).toEqual(['Id', 'Key']);

    const info = await call('GET', `/object/info/${bucket}/f/a.txt`);
    expect(keys(info.body)).toEqual(
      [
        'id',
        'name',
        'version',
        'bucket_id',
        'size',
        'content_type',
        'cache_control',
        'etag',
        'metadata',
        'last_modified',
        'created_at',
      ].sort(),
    );
    // No user metadata was sent: storage-api stores and answers `{}`, not null.
    expect(info.body.metadata).toEqual({});

    const listed = await call('POST', `/object/list/${bucket}`, { prefix: 'f' });
    expect(keys((listed.body as unknown as unknown[])[0])).toEqual(
      ['name', 'id', 'updated_at', 'created_at', 'last_accessed_at', 'metadata'].sort(),
    );
    expect(keys((await call('POST', `/object/sign/${bucket}/f/a.txt`, { expiresIn: 60 })).body)).toEqual([
      'signedURL',
    ]);
    expect(keys((await call('POST', `/object/upload/sign/${bucket}/f/b.txt`)).body)).toEqual([
      'token',
      'url',
    ]);
    const moved = await call('POST', '/object/move', {
      bucketId: bucket,
      sourceKey: 'f/a.txt',
      destinationKey: 'f/c.txt',
    });
    expect(keys(moved.body)).toEqual(['Id', 'Key', 'message']);
    expect((await call('DELETE', `/object/${bucket}/f/c.txt`)).body).toEqual({
      message: 'Successfully deleted',
    });
  });
});
