// The unmodified @supabase/supabase-js storage client against the local storage API: buckets,
// objects, signed URLs, limits and RLS, each with the errors storage-api gives.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient, backend, confirmedUser } from '../../tests/support/backend.ts';
import { until } from '../../tests/support/until.ts';

const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
const run = randomUUID().slice(0, 8);
const dataDir = path.resolve(import.meta.dirname, '../..', process.env.TEST_DATA_DIR ?? '.data/test');

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: backend().dbUrl });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function signedIn(tag: string): Promise<{ id: string; client: SupabaseClient }> {
  const user = await confirmedUser(tag);
  const client = anonClient();
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return { id: user.id, client };
}

async function newBucket(
  tag: string,
  options: Parameters<SupabaseClient['storage']['createBucket']>[1] = { public: false },
) {
  const id = `${tag}-${run}-${randomUUID().slice(0, 4)}`;
  const { error } = await adminClient().storage.createBucket(id, options);
  if (error) throw error;
  return id;
}

function storageUrl(rest: string): string {
  return `${backend().apiUrl}/storage/v1${rest}`;
}

// Policies made here carry the run id in their names; they go when the file is done.
afterAll(async () => {
  const { rows } = await sql(
    `select policyname, tablename from pg_policies where schemaname = 'storage' and policyname like $1`,
    [`% ${run}`],
  );
  for (const row of rows) await sql(`drop policy "${row.policyname}" on storage.${row.tablename}`);
});

const files = () => {
  const root = path.join(dataDir, 'storage', 'objects');
  return existsSync(root) ? readdirSync(root).flatMap((shard) => readdirSync(path.join(root, shard))) : [];
};
const tmpFiles = () => readdirSync(path.join(dataDir, 'storage', 'tmp'));

describe('buckets', () => {
  it('creates, reads, lists, updates, empties and deletes a bucket with the admin key', async () => {
    const storage = adminClient().storage;
    const id = `crud-${run}`;
    const created = await storage.createBucket(id, {
      public: false,
      fileSizeLimit: '1MB',
      allowedMimeTypes: ['image/*', 'text/plain'],
    });
    expect(created).toEqual({ data: { name: id }, error: null });

    const { data: bucket } = await storage.getBucket(id);
    expect(bucket).toMatchObject({
      id,
      name: id,
      public: false,
      file_size_limit: 1_000_000,
      allowed_mime_types: ['image/*', 'text/plain'],
    });
    const { data: listed } = await storage.listBuckets({ search: `crud-${run}` });
    expect(listed?.map((b) => b.id)).toEqual([id]);

    const updated = await storage.updateBucket(id, {
      public: true,
      fileSizeLimit: 2048,
      allowedMimeTypes: null,
    });
    expect(updated.data).toEqual({ message: 'Successfully updated' });
    expect((await storage.getBucket(id)).data).toMatchObject({
      public: true,
      file_size_limit: 2048,
      allowed_mime_types: null,
    });

    await storage.from(id).upload('a.txt', 'a');
    const refused = await storage.deleteBucket(id);
    expect(refused.error).toMatchObject({
      status: 400,
      statusCode: '409',
      code: 'ResourceNotEmpty',
      message: 'The bucket you tried to delete is not empty',
    });
    const emptied = await storage.emptyBucket(id);
    expect(emptied.error).toBeNull();
    expect((await storage.from(id).list()).data).toEqual([]);
    expect((await storage.deleteBucket(id)).data).toEqual({ message: 'Successfully deleted' });
    expect((await storage.getBucket(id)).error).toMatchObject({
      status: 400,
      statusCode: '404',
      code: 'NoSuchBucket',
      message: 'Bucket not found',
    });
  });

  it('refuses duplicates, bad names, oversized limits and malformed mime types like storage-api', async () => {
    const storage = adminClient().storage;
    const id = await newBucket('dup');
    expect((await storage.createBucket(id)).error).toMatchObject({
      status: 400,
      statusCode: '409',
      code: 'BucketAlreadyExists',
      message: 'The resource already exists',
    });
    expect((await storage.createBucket('no/slash')).error).toMatchObject({
      code: 'InvalidBucketName',
      message: 'Bucket name invalid',
    });
    expect(
      (await storage.createBucket(`big-${run}`, { public: false, fileSizeLimit: '5GB' })).error,
    ).toMatchObject({
      statusCode: '413',
      code: 'EntityTooLarge',
    });
    expect(
      (await storage.createBucket(`mime-${run}`, { public: false, allowedMimeTypes: ['not a type'] })).error,
    ).toMatchObject({
      statusCode: '415',
      code: 'InvalidMimeType',
      message: 'mime type not a type is not supported',
    });
    expect((await storage.deleteBucket(`missing-${run}`)).error).toMatchObject({ code: 'NoSuchBucket' });
  });

  it('lets users create and see buckets only as policies on storage.buckets allow', async () => {
    const { client } = await signedIn('bucket-rls');
    const denied = await client.storage.createBucket(`mine-${run}`);
    expect(denied.error).toMatchObject({
      status: 400,
      statusCode: '403',
      code: 'AccessDenied',
      message: 'new row violates row-level security policy',
    });
    expect((await client.storage.listBuckets()).data).toEqual([]);

    const prefix = `self-${run}-`;
    await sql(`
      create policy "self-service buckets ${run}" on storage.buckets for insert to authenticated
        with check (name like '${prefix}%' and owner_id = (select auth.uid())::text);
      create policy "see own buckets ${run}" on storage.buckets for select to authenticated
        using (owner_id = (select auth.uid())::text);
    `);
    const allowed = await client.storage.createBucket(`${prefix}a`);
    expect(allowed.error).toBeNull();
    expect((await client.storage.listBuckets()).data?.map((b) => b.id)).toEqual([`${prefix}a`]);
    expect((await client.storage.getBucket(`${prefix}a`)).data?.id).toBe(`${prefix}a`);
    // Emptying is for the service role only, and that one is a real 403.
    const empty = await client.storage.emptyBucket(`${prefix}a`);
    expect(empty.error).toMatchObject({ status: 403, code: 'AccessDenied' });
    // No delete policy: the row is invisible to DELETE, which storage-api reports as a missing bucket.
    expect((await client.storage.deleteBucket(`${prefix}a`)).error).toMatchObject({ code: 'NoSuchBucket' });
  });
});

describe('objects', () => {
  let bucket: string;
  beforeAll(async () => {
    bucket = await newBucket('objects');
  });

  it('uploads a raw body with cache control and user metadata, and reports it through info()', async () => {
    const from = adminClient().storage.from(bucket);
    const { data, error } = await from.upload('docs/readme.txt', 'hello storage', {
      contentType: 'text/plain;charset=UTF-8',
      cacheControl: '120',
      metadata: { purpose: 'contract' },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ path: 'docs/readme.txt', fullPath: `${bucket}/docs/readme.txt` });
    expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);

    const info = await from.info('docs/readme.txt');
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      id: data?.id,
      name: 'docs/readme.txt',
      bucketId: bucket,
      size: 13,
      contentType: 'text/plain;charset=UTF-8',
      cacheControl: 'max-age=120',
      metadata: { purpose: 'contract' },
    });
    expect(info.data?.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await from.exists('docs/readme.txt')).data).toBe(true);
    expect((await from.exists('docs/nothing.txt')).data).toBe(false);

    const download = await from.download('docs/readme.txt');
    expect(await download.data?.text()).toBe('hello storage');
    expect(download.data?.type).toBe('text/plain;charset=utf-8');
  });

  it('uploads a Blob as multipart form data, keeping its type', async () => {
    const from = adminClient().storage.from(bucket);
    const png = new Blob([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], { type: 'image/png' });
    const { error } = await from.upload('images/dot.png', png, { metadata: { alt: 'a dot' } });
    expect(error).toBeNull();
    const info = await from.info('images/dot.png');
    expect(info.data).toMatchObject({
      size: 7,
      contentType: 'image/png',
      cacheControl: 'max-age=3600',
      metadata: { alt: 'a dot' },
    });
    const { data } = await from.download('images/dot.png');
    expect(new Uint8Array(await (data ?? new Blob()).arrayBuffer())).toEqual(
      new Uint8Array([137, 80, 78, 71, 1, 2, 3]),
    );
  });

  it('refuses a second POST to the same path, overwrites with upsert and with update()', async () => {
    const from = adminClient().storage.from(bucket);
    await from.upload('over/write.txt', 'one');
    const again = await from.upload('over/write.txt', 'two');
    expect(again.error).toMatchObject({
      status: 400,
      statusCode: '409',
      code: 'ResourceAlreadyExists',
      message: 'The resource already exists',
    });
    expect((await from.upload('over/write.txt', 'three', { upsert: true })).error).toBeNull();
    expect(await (await from.download('over/write.txt')).data?.text()).toBe('three');
    expect((await from.update('over/write.txt', 'four')).error).toBeNull();
    expect(await (await from.download('over/write.txt')).data?.text()).toBe('four');
  });

  it('answers a missing object with NoSuchKey and an invalid key with InvalidKey', async () => {
    const from = adminClient().storage.from(bucket);
    const missing = await from.download('no/such/file.txt');
    expect(missing.error).toMatchObject({
      status: 400,
      statusCode: '404',
      code: 'NoSuchKey',
      message: 'Object not found',
    });
    const bad = await from.upload('bad\u0007name.txt', 'x');
    expect(bad.error).toMatchObject({ code: 'InvalidKey', message: 'Invalid key: bad\u0007name.txt' });
    const noBucket = await adminClient().storage.from(`missing-${run}`).upload('a.txt', 'x');
    expect(noBucket.error).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
  });

  it('lists one level under a prefix, folders as entries without an id, with paging, sorting and search', async () => {
    const id = await newBucket('list');
    const from = adminClient().storage.from(id);
    for (const name of ['b.txt', 'a.txt', 'Folder/inner.txt', 'Folder/deeper/x.txt', 'c/one.txt', 'c.txt']) {
      await from.upload(name, name);
    }
    const { data: root } = await from.list();
    expect(root?.map((e) => e.name)).toEqual(['a.txt', 'b.txt', 'c.txt', 'c', 'Folder']);
    const folder = root?.find((e) => e.name === 'Folder');
    expect(folder).toMatchObject({ id: null, metadata: null, updated_at: null });
    const file = root?.find((e) => e.name === 'a.txt');
    expect(file?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(file?.metadata).toMatchObject({ size: 5, mimetype: 'text/plain;charset=UTF-8' });

    expect((await from.list('Folder')).data?.map((e) => e.name)).toEqual(['deeper', 'inner.txt']);
    expect((await from.list('folder/')).data?.map((e) => e.name)).toEqual(['deeper', 'inner.txt']);
    expect((await from.list('', { limit: 2, offset: 1 })).data?.map((e) => e.name)).toEqual([
      'b.txt',
      'c.txt',
    ]);
    expect(
      (await from.list('', { sortBy: { column: 'name', order: 'desc' } })).data?.map((e) => e.name),
    ).toEqual(['Folder', 'c', 'c.txt', 'b.txt', 'a.txt']);
    // Other sort columns list folders first, then files in that column's order.
    const byCreation = (await from.list('', { sortBy: { column: 'created_at', order: 'asc' } })).data;
    expect(byCreation?.slice(0, 2).map((e) => e.id)).toEqual([null, null]);
    expect(byCreation?.slice(2).map((e) => e.name)).toEqual(['b.txt', 'a.txt', 'c.txt']);
    expect((await from.list('', { search: 'c' })).data?.map((e) => e.name)).toEqual(['c.txt', 'c']);
  });

  it('moves, copies and removes objects', async () => {
    const from = adminClient().storage.from(bucket);
    await from.upload('move/from.txt', 'moving', { metadata: { keep: true } });
    const moved = await from.move('move/from.txt', 'move/to.txt');
    expect(moved.data).toMatchObject({ message: 'Successfully moved' });
    expect((await from.exists('move/from.txt')).data).toBe(false);
    expect(await (await from.download('move/to.txt')).data?.text()).toBe('moving');
    expect((await from.move('move/from.txt', 'move/x.txt')).error).toMatchObject({ code: 'NoSuchKey' });

    const other = await newBucket('copy-target');
    const copied = await from.copy('move/to.txt', 'copy.txt', { destinationBucket: other });
    expect(copied).toEqual({ data: { path: `${other}/copy.txt` }, error: null });
    const copy = await adminClient().storage.from(other).info('copy.txt');
    expect(copy.data).toMatchObject({ size: 6, metadata: { keep: true } });
    const duplicate = await from.copy('move/to.txt', 'copy.txt', { destinationBucket: other });
    expect(duplicate.error).toMatchObject({ code: 'ResourceAlreadyExists' });
    expect(await (await from.download('move/to.txt')).data?.text()).toBe('moving');

    await from.upload('remove/1.txt', '1');
    await from.upload('remove/2.txt', '2');
    const removed = await from.remove(['remove/1.txt', 'remove/2.txt', 'remove/ghost.txt']);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((o) => o.name).sort()).toEqual(['remove/1.txt', 'remove/2.txt']);
    expect(removed.data?.[0]).toMatchObject({ bucket_id: bucket, metadata: { size: 1 } });
    expect((await from.list('remove')).data).toEqual([]);
  });

  it('serves downloads with the stored headers, ranges and conditional requests', async () => {
    const from = adminClient().storage.from(bucket);
    await from.upload('served/data.bin', 'abcdefghij', {
      contentType: 'application/octet-stream',
      cacheControl: '60',
    });
    const url = storageUrl(`/object/${bucket}/served/data.bin`);
    const auth = { apikey: backend().serviceRoleKey, Authorization: `Bearer ${backend().serviceRoleKey}` };
    const full = await fetch(url, { headers: auth });
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('application/octet-stream');
    expect(full.headers.get('cache-control')).toBe('max-age=60');
    expect(full.headers.get('content-length')).toBe('10');
    expect(full.headers.get('x-content-type-options')).toBe('nosniff');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('last-modified')).toBeTruthy();
    const etag = full.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await full.text()).toBe('abcdefghij');

    const part = await fetch(url, { headers: { ...auth, Range: 'bytes=2-4' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(await part.text()).toBe('cde');
    const suffix = await fetch(url, { headers: { ...auth, Range: 'bytes=-3' } });
    expect(await suffix.text()).toBe('hij');
    const unsatisfiable = await fetch(url, { headers: { ...auth, Range: 'bytes=50-60' } });
    expect(unsatisfiable.status).toBe(416);
    expect(await unsatisfiable.json()).toMatchObject({ statusCode: '416', code: 'InvalidRange' });

    const cached = await fetch(url, { headers: { ...auth, 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
    const named = await fetch(`${url}?download=report.bin`, { headers: auth });
    expect(named.headers.get('content-disposition')).toBe(
      "attachment; filename=report.bin; filename*=UTF-8''report.bin",
    );
    const head = await fetch(url, { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
  });

  it('never serves an uploaded document as active content, whatever its Content-Type claims', async () => {
    const from = adminClient().storage.from(bucket);
    const auth = { apikey: backend().serviceRoleKey, Authorization: `Bearer ${backend().serviceRoleKey}` };
    await from.upload('xss/page.html', '<script>alert(1)</script>', { contentType: 'text/html' });
    const html = await fetch(storageUrl(`/object/${bucket}/xss/page.html`), { headers: auth });
    expect(html.headers.get('content-type')).toBe('text/plain');
    expect(html.headers.get('content-disposition')).toBe(
      "attachment; filename=page.html; filename*=UTF-8''page.html",
    );
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');

    await from.upload('xss/logo.png', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', {
      contentType: 'image/svg+xml',
    });
    const svg = await fetch(storageUrl(`/object/${bucket}/xss/logo.png`), { headers: auth });
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(svg.headers.get('content-security-policy')).toContain('sandbox');

    await from.upload('xss/safe.png', 'png', { contentType: 'image/png' });
    const png = await fetch(storageUrl(`/object/${bucket}/xss/safe.png`), { headers: auth });
    expect(png.headers.get('content-disposition')).toBeNull();
  });
});

describe('public buckets and the gateway', () => {
  it('serves public objects without a key and hides private ones behind "Bucket not found"', async () => {
    const pub = await newBucket('public', { public: true });
    const priv = await newBucket('private');
    await adminClient().storage.from(pub).upload('hello.txt', 'public hello');
    await adminClient().storage.from(priv).upload('hello.txt', 'private hello');

    const { data } = anonClient().storage.from(pub).getPublicUrl('hello.txt', { download: 'greeting.txt' });
    const res = await fetch(data.publicUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('public hello');
    expect(res.headers.get('content-disposition')).toContain('filename=greeting.txt');

    const hidden = await fetch(anonClient().storage.from(priv).getPublicUrl('hello.txt').data.publicUrl);
    expect(hidden.status).toBe(400);
    expect(await hidden.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchBucket',
      error: 'Bucket not found',
      message: 'Bucket not found',
    });
    // Anyone with the anon key reads a public bucket; a private one is up to its (absent) policies.
    expect(await (await anonClient().storage.from(pub).download('hello.txt')).data?.text()).toBe(
      'public hello',
    );
    expect((await anonClient().storage.from(priv).download('hello.txt')).error).toMatchObject({
      code: 'NoSuchKey',
    });
  });

  it('reads the token from Authorization, with or without Bearer, and answers CORS preflights', async () => {
    // storage-api's jwt plugin (src/http/plugins/jwt.ts) behind the CLI's gateway, which checks no key:
    // no token at all fails to verify. supabase-js's listBuckets() with no key gets this error.
    const noKey = await fetch(storageUrl('/bucket'));
    expect(noKey.status).toBe(400);
    expect(await noKey.json()).toMatchObject({
      statusCode: '403',
      code: 'AccessDenied',
      message: 'Invalid Compact JWS',
    });
    // A key alone reaches storage as the gateway's Authorization, without Bearer: that key's role.
    const withKey = await fetch(storageUrl('/bucket'), { headers: { apikey: backend().serviceRoleKey } });
    expect(withKey.status).toBe(200);
    expect(Array.isArray(await withKey.json())).toBe(true);
    const bare = await fetch(storageUrl('/bucket'), { headers: { Authorization: backend().serviceRoleKey } });
    expect(bare.status).toBe(200);
    await bare.arrayBuffer();
    // A scheme other than Bearer is part of the token, which then fails to verify.
    const basic = await fetch(storageUrl('/bucket'), {
      headers: { apikey: backend().serviceRoleKey, Authorization: `Basic ${backend().serviceRoleKey}` },
    });
    expect(basic.status).toBe(400);
    expect(await basic.json()).toMatchObject({ code: 'AccessDenied' });
    const badJwt = await fetch(storageUrl('/bucket'), {
      headers: { apikey: backend().anonKey, Authorization: 'Bearer not-a-jwt' },
    });
    expect(badJwt.status).toBe(400);
    expect(await badJwt.json()).toMatchObject({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
    });

    const preflight = await fetch(storageUrl(`/object/any/file.txt`), {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, apikey, x-upsert, x-metadata, cache-control',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-upsert');
    const unknown = await fetch(storageUrl('/nothing'), { headers: { apikey: backend().anonKey } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ statusCode: '404', error: 'Not Found' });
  });
});

describe('limits', () => {
  it('enforces the bucket file size limit on raw and multipart uploads, leaving nothing behind', async () => {
    const id = await newBucket('small', { public: false, fileSizeLimit: 1024 });
    const from = adminClient().storage.from(id);
    const before = files().length;
    const raw = await from.upload('big.bin', Buffer.alloc(2048, 1), {
      contentType: 'application/octet-stream',
    });
    expect(raw.error).toMatchObject({
      status: 400,
      statusCode: '413',
      code: 'EntityTooLarge',
      message: 'The object exceeded the maximum allowed size',
    });
    const multipart = await from.upload('big.png', new Blob([new Uint8Array(4096)], { type: 'image/png' }));
    expect(multipart.error).toMatchObject({ statusCode: '413', code: 'EntityTooLarge' });
    expect((await from.exists('big.bin')).data).toBe(false);
    expect((await from.exists('big.png')).data).toBe(false);
    expect(files().length).toBe(before);
    expect(tmpFiles()).toEqual([]);
    expect((await from.upload('fits.bin', Buffer.alloc(1024, 1))).error).toBeNull();
  });

  it('accepts only the allowed mime types, wildcards included', async () => {
    const id = await newBucket('images', { public: false, allowedMimeTypes: ['image/*', 'application/pdf'] });
    const from = adminClient().storage.from(id);
    expect((await from.upload('a.png', 'png', { contentType: 'image/png' })).error).toBeNull();
    expect((await from.upload('a.pdf', 'pdf', { contentType: 'application/pdf' })).error).toBeNull();
    const refused = await from.upload('a.txt', 'text', { contentType: 'text/plain' });
    expect(refused.error).toMatchObject({
      status: 400,
      statusCode: '415',
      code: 'InvalidMimeType',
      message: 'mime type text/plain is not supported',
    });
    const lying = await from.upload('b.png', new Blob(['<html>'], { type: 'text/html' }));
    expect(lying.error).toMatchObject({ code: 'InvalidMimeType' });
  });

  it('leaves neither a row nor a file when an upload is cut off', async () => {
    const id = await newBucket('cut');
    const before = files().length;
    const { apiUrl, serviceRoleKey } = backend();
    const url = new URL(`${apiUrl}/storage/v1/object/${id}/half.bin`);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        apikey: serviceRoleKey,
        Authorization: `Bearer ${serviceRoleKey}`,
        'Content-Type': 'application/octet-stream',
        'Content-Length': 100_000,
      },
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(10_000, 7));
    // Cut off once the body is being written to disk, then wait for the server to clean up.
    await until('the upload to reach a temporary file', () => (tmpFiles().length > 0 ? true : undefined));
    req.destroy();
    await until('the temporary file to go', () => (tmpFiles().length === 0 ? true : undefined));
    expect((await adminClient().storage.from(id).exists('half.bin')).data).toBe(false);
    expect(files().length).toBe(before);
    expect(tmpFiles()).toEqual([]);
  });

  it('keeps object bodies in the data directory, one file per version', async () => {
    const id = await newBucket('disk');
    await adminClient().storage.from(id).upload('kept.txt', 'kept on disk');
    const { rows } = await sql('select version from storage.objects where bucket_id = $1 and name = $2', [
      id,
      'kept.txt',
    ]);
    const version: string = rows[0].version;
    const file = path.join(dataDir, 'storage', 'objects', version.slice(0, 2), version);
    expect(readFileSync(file, 'utf8')).toBe('kept on disk');
    await adminClient().storage.from(id).update('kept.txt', 'replaced');
    expect(existsSync(file)).toBe(false);
  });
});

describe('signed URLs', () => {
  let bucket: string;
  beforeAll(async () => {
    bucket = await newBucket('signed');
    await adminClient().storage.from(bucket).upload('doc.txt', 'signed content');
  });

  it('signs one or many paths, and the URL serves the object without any key', async () => {
    const from = adminClient().storage.from(bucket);
    const { data, error } = await from.createSignedUrl('doc.txt', 60, { download: 'copy.txt' });
    expect(error).toBeNull();
    const res = await fetch(data?.signedUrl ?? '');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('signed content');
    expect(res.headers.get('content-disposition')).toContain('filename=copy.txt');
    expect(res.headers.get('expires')).toBeTruthy();

    const token = new URL(data?.signedUrl ?? '').searchParams.get('token') ?? '';
    const claims = jose.decodeJwt(token);
    expect(claims).toMatchObject({ url: `${bucket}/doc.txt`, scope: 'download' });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(60);

    const many = await from.createSignedUrls(['doc.txt', 'ghost.txt'], 60);
    expect(many.data?.[0]).toMatchObject({ path: 'doc.txt', error: null });
    expect(await (await fetch(many.data?.[0]?.signedUrl ?? '')).text()).toBe('signed content');
    expect(many.data?.[1]).toEqual({
      path: 'ghost.txt',
      error: 'Either the object does not exist or you do not have access to it',
      signedURL: null,
      signedUrl: null,
    });
    expect((await from.createSignedUrl('ghost.txt', 60)).error).toMatchObject({ code: 'NoSuchKey' });
  });

  it('refuses expired, forged and misdirected tokens', async () => {
    const secret = new TextEncoder().encode(JWT_SECRET);
    const sign = (payload: jose.JWTPayload, exp: number, key = secret) =>
      new jose.SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(key);
    const now = Math.floor(Date.now() / 1000);
    const url = (token: string) => storageUrl(`/object/sign/${bucket}/doc.txt?token=${token}`);

    const expired = await fetch(url(await sign({ url: `${bucket}/doc.txt`, scope: 'download' }, now - 5)));
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      statusCode: '400',
      code: 'InvalidJWT',
      error: 'InvalidJWT',
      message: '"exp" claim timestamp check failed',
    });
    const forged = await fetch(
      url(await sign({ url: `${bucket}/doc.txt` }, now + 60, new TextEncoder().encode('x'.repeat(40)))),
    );
    expect(await forged.json()).toMatchObject({
      code: 'InvalidJWT',
      message: 'signature verification failed',
    });
    const elsewhere = await fetch(
      url(await sign({ url: `${bucket}/other.txt`, scope: 'download' }, now + 60)),
    );
    expect(await elsewhere.json()).toMatchObject({ code: 'InvalidSignature' });
    const uploadToken = await fetch(
      url(await sign({ url: `${bucket}/doc.txt`, scope: 'upload', upsert: false }, now + 60)),
    );
    expect(await uploadToken.json()).toMatchObject({
      code: 'InvalidSignature',
      message: 'Token is not scoped for download',
    });
  });

  it('signs an upload URL that anyone holding it can use once, as the user who asked', async () => {
    const { id: userId, client } = await signedIn('signed-upload');
    await sql(`
      create policy "signed uploads ${run}" on storage.objects for insert to authenticated
        with check (bucket_id = '${bucket}' and name like 'inbox/%');
    `);
    const created = await client.storage.from(bucket).createSignedUploadUrl('inbox/form.txt');
    expect(created.error).toBeNull();
    expect(created.data?.signedUrl).toContain(
      `/storage/v1/object/upload/sign/${bucket}/inbox/form.txt?token=`,
    );
    const stranger = anonClient().storage.from(bucket);
    const uploaded = await stranger.uploadToSignedUrl(
      'inbox/form.txt',
      created.data?.token ?? '',
      'from a form',
    );
    expect(uploaded.error).toBeNull();
    expect(uploaded.data).toMatchObject({ path: 'inbox/form.txt', fullPath: `${bucket}/inbox/form.txt` });
    const { rows } = await sql('select owner_id from storage.objects where bucket_id = $1 and name = $2', [
      bucket,
      'inbox/form.txt',
    ]);
    expect(rows[0].owner_id).toBe(userId);
    const again = await stranger.uploadToSignedUrl('inbox/form.txt', created.data?.token ?? '', 'again');
    expect(again.error).toMatchObject({ code: 'ResourceAlreadyExists' });
    const refused = await client.storage.from(bucket).createSignedUploadUrl('elsewhere/form.txt');
    expect(refused.error).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
  });
});

describe('row-level security on storage.objects', () => {
  let bucket: string;
  let owner: { id: string; client: SupabaseClient };
  let outsider: { id: string; client: SupabaseClient };
  const ownerPath = () => `${owner.id}/private.txt`;

  beforeAll(async () => {
    bucket = await newBucket('folders');
    const own = `bucket_id = '${bucket}' and (storage.foldername(name))[1] = (select auth.uid())::text`;
    await sql(`
      create policy "read own folder ${run}" on storage.objects for select to authenticated using (${own});
      create policy "write own folder ${run}" on storage.objects for insert to authenticated with check (${own});
      create policy "update own folder ${run}" on storage.objects for update to authenticated
        using (${own}) with check (${own});
      create policy "delete own folder ${run}" on storage.objects for delete to authenticated using (${own});
    `);
    owner = await signedIn('owner');
    outsider = await signedIn('outsider');
    const { error } = await owner.client.storage.from(bucket).upload(ownerPath(), 'owner only');
    if (error) throw error;
  });

  it('lets the owner work in their folder and records them as the owner', async () => {
    const from = owner.client.storage.from(bucket);
    expect((await from.list(owner.id)).data?.map((e) => e.name)).toEqual(['private.txt']);
    expect(await (await from.download(ownerPath())).data?.text()).toBe('owner only');
    expect((await from.upload(ownerPath(), 'owner again', { upsert: true })).error).toBeNull();
    expect((await from.createSignedUrl(ownerPath(), 30)).error).toBeNull();
    const { rows } = await sql(
      'select owner, owner_id from storage.objects where bucket_id = $1 and name = $2',
      [bucket, ownerPath()],
    );
    expect(rows[0]).toEqual({ owner: owner.id, owner_id: owner.id });
    const elsewhere = await from.upload(`${outsider.id}/planted.txt`, 'x');
    expect(elsewhere.error).toMatchObject({
      status: 400,
      statusCode: '403',
      code: 'AccessDenied',
      message: 'new row violates row-level security policy',
    });
  });

  it("keeps an outsider from listing, reading, signing, overwriting, moving or deleting another's objects", async () => {
    const from = outsider.client.storage.from(bucket);
    expect((await from.list(owner.id)).data).toEqual([]);
    expect((await from.list()).data).toEqual([]);
    expect((await from.download(ownerPath())).error).toMatchObject({ code: 'NoSuchKey' });
    expect((await from.info(ownerPath())).error).toMatchObject({ code: 'NoSuchKey' });
    expect((await from.createSignedUrl(ownerPath(), 60)).error).toMatchObject({ code: 'NoSuchKey' });
    expect((await from.createSignedUrls([ownerPath()], 60)).data?.[0]?.signedURL).toBeNull();
    for (const attempt of [
      from.upload(ownerPath(), 'overwritten'),
      from.upload(ownerPath(), 'overwritten', { upsert: true }),
      from.update(ownerPath(), 'overwritten'),
    ]) {
      expect((await attempt).error).toMatchObject({ code: 'AccessDenied', statusCode: '403' });
    }
    expect((await from.move(ownerPath(), `${outsider.id}/stolen.txt`)).error).toMatchObject({
      code: 'NoSuchKey',
    });
    expect((await from.copy(ownerPath(), `${outsider.id}/stolen.txt`)).error).toMatchObject({
      code: 'NoSuchKey',
    });
    expect((await from.remove([ownerPath()])).data).toEqual([]);
    expect((await anonClient().storage.from(bucket).download(ownerPath())).error).toMatchObject({
      code: 'NoSuchKey',
    });
    expect(await (await owner.client.storage.from(bucket).download(ownerPath())).data?.text()).toBe(
      'owner again',
    );
  });

  it('lets the owner move and delete within their folder only', async () => {
    const from = owner.client.storage.from(bucket);
    await from.upload(`${owner.id}/draft.txt`, 'draft');
    const out = await from.move(`${owner.id}/draft.txt`, `${outsider.id}/draft.txt`);
    expect(out.error).toMatchObject({ code: 'AccessDenied' });
    expect((await from.move(`${owner.id}/draft.txt`, `${owner.id}/final.txt`)).error).toBeNull();
    const removed = await from.remove([`${owner.id}/final.txt`]);
    expect(removed.data?.map((o) => o.name)).toEqual([`${owner.id}/final.txt`]);
  });
});
