// storage-js listV2() against POST /object/list-v2/{bucket}, answered as storage-api answers it
// (supabase/storage src/http/routes/object/listObjectsV2.ts, src/storage/object.ts listObjectsV2):
// full names, a base64 cursor while `hasNext`, and with `with_delimiter` one level of folders and objects.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '../../tests/support/backend.ts';

async function bucketWith(names: string[]): Promise<string> {
  const id = `listv2-${randomUUID().slice(0, 8)}`;
  const admin = adminClient();
  const { error } = await admin.storage.createBucket(id, { public: false });
  if (error) throw error;
  for (const name of names) {
    const upload = await admin.storage.from(id).upload(name, new Blob(['x'], { type: 'text/plain' }));
    if (upload.error) throw upload.error;
  }
  return id;
}

describe('list-v2', () => {
  it('lists every object under a prefix, flat, with full names', async () => {
    const bucket = await bucketWith(['a/one.txt', 'a/b/two.txt', 'a/b/c/three.txt', 'z.txt']);
    const { data, error } = await adminClient().storage.from(bucket).listV2({ prefix: 'a/' });
    expect(error).toBeNull();
    expect(data?.hasNext).toBe(false);
    expect(data?.folders).toEqual([]);
    expect(data?.objects.map((o) => o.name)).toEqual(['a/b/c/three.txt', 'a/b/two.txt', 'a/one.txt']);
    const first = data?.objects[0];
    expect(first?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.metadata).toMatchObject({ size: 1, mimetype: 'text/plain' });
    expect(Object.keys(first ?? {}).sort()).toEqual(
      ['created_at', 'id', 'last_accessed_at', 'metadata', 'name', 'updated_at'].sort(),
    );
  });

  it('with_delimiter shows one level: folders by their prefix, objects with their key', async () => {
    const bucket = await bucketWith(['a/one.txt', 'a/b/two.txt', 'a/b/c/three.txt', 'a/d/four.txt']);
    const { data, error } = await adminClient()
      .storage.from(bucket)
      .listV2({ prefix: 'a/', with_delimiter: true });
    expect(error).toBeNull();
    // storage.search_v2 (migrations/tenant/0050-search-v2-optimised.sql): a folder is a row of its
    // own, keyed like an object, without an id, metadata or, listed by name, timestamps.
    const folder = { id: null, metadata: null, updated_at: null, created_at: null, last_accessed_at: null };
    expect(data?.folders).toEqual([
      { ...folder, key: 'b', name: 'a/b/' },
      { ...folder, key: 'd', name: 'a/d/' },
    ]);
    expect(data?.objects.map((o) => [o.key, o.name])).toEqual([['one.txt', 'a/one.txt']]);
    // Listed by time (storage.search_by_timestamp), a folder carries its oldest object's creation time.
    const byTime = await adminClient()
      .storage.from(bucket)
      .listV2({ prefix: 'a/', with_delimiter: true, sortBy: { column: 'created_at' } });
    const b = byTime.data?.folders.find((f) => f.name === 'a/b/');
    expect(b).toMatchObject({ key: 'b', created_at: expect.any(String) });
    if (!b || !('created_at' in b) || !('updated_at' in b)) throw new Error('no timestamps on a/b/');
    expect(b.updated_at).toBe(b.created_at);
  });

  it('pages with the cursor until hasNext is false', async () => {
    const names = ['p/1', 'p/2', 'p/3', 'p/4', 'p/5'];
    const bucket = await bucketWith(names);
    const api = adminClient().storage.from(bucket);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const { data, error } = await api.listV2({ prefix: 'p/', limit: 2, cursor });
      expect(error).toBeNull();
      seen.push(...(data?.objects.map((o) => o.name) ?? []));
      if (!data?.hasNext) break;
      expect(data.nextCursor).toBeTruthy();
      cursor = data.nextCursor;
    }
    expect(seen).toEqual(names);
    const desc = await api.listV2({ prefix: 'p/', sortBy: { column: 'name', order: 'desc' }, limit: 3 });
    expect(desc.data?.objects.map((o) => o.name)).toEqual(['p/5', 'p/4', 'p/3']);
  });

  it('shows only what the policies let the caller select, and refuses a malformed cursor', async () => {
    const bucket = await bucketWith(['secret/file.txt']);
    const { data, error } = await anonClient().storage.from(bucket).listV2({ prefix: '' });
    expect(error).toBeNull();
    expect(data?.objects).toEqual([]);
    const bad = await adminClient().storage.from(bucket).listV2({ cursor: 'bm90LWEtY3Vyc29y' });
    expect(bad.error).toMatchObject({ statusCode: '400' });
    expect((bad.error as { message?: string } | null)?.message).toBe('Invalid Parameter continuation token');
  });
});
