// Image transformations through the unmodified storage client and plain HTTP, as storage-api serves
// them with imgproxy behind it (supabase/storage src/http/routes/render/*.ts,
// src/http/schemas/transformations.ts, src/storage/renderer/image.ts, src/storage/object.ts
// signObjectUrl; storage-js src/packages/StorageFileApi.ts for the URLs the client builds).
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient, backend, confirmedUser } from '../../tests/support/backend.ts';
import { sql } from '../../tests/support/db.ts';

const run = randomUUID().slice(0, 8);

async function newBucket(tag: string, isPublic: boolean) {
  const id = `${tag}-${run}`;
  const { error } = await adminClient().storage.createBucket(id, { public: isPublic });
  if (error) throw error;
  return id;
}

/** A 400×300 JPEG: two colours, so a crop and a stretch give different pixels. */
const photo = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366cc' } })
    .composite([
      {
        input: { create: { width: 100, height: 300, channels: 3, background: '#ff0000' } },
        left: 0,
        top: 0,
      },
    ])
    .jpeg()
    .toBuffer();

const url = (rest: string) => `${backend().apiUrl}/storage/v1${rest}`;
const adminHeaders = () => ({
  apikey: backend().serviceRoleKey,
  Authorization: `Bearer ${backend().serviceRoleKey}`,
});

async function image(res: Response) {
  const body = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(body).metadata();
  return { format: meta.format, width: meta.width, height: meta.height, bytes: body.length };
}

let privateBucket: string;
let publicBucket: string;

beforeAll(async () => {
  privateBucket = await newBucket('render-private', false);
  publicBucket = await newBucket('render-public', true);
  const jpeg = await photo();
  for (const bucket of [privateBucket, publicBucket]) {
    const { error } = await adminClient()
      .storage.from(bucket)
      .upload('photo.jpg', jpeg, { contentType: 'image/jpeg', cacheControl: '60' });
    if (error) throw error;
  }
  const text = await adminClient().storage.from(privateBucket).upload('notes.txt', 'not an image');
  if (text.error) throw text.error;
  const broken = await adminClient()
    .storage.from(privateBucket)
    .upload('broken.jpg', jpeg.subarray(0, 200), { contentType: 'image/jpeg' });
  if (broken.error) throw broken.error;
});

describe('rendering', () => {
  it('download({ transform }) renders through /render/image/authenticated, cropping to cover', async () => {
    const { data, error } = await adminClient()
      .storage.from(privateBucket)
      .download('photo.jpg', { transform: { width: 200, height: 200 } });
    expect(error).toBeNull();
    expect(data?.type).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await data!.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 200, 200]);
  });

  it('resizes as imgproxy does: cover, contain, fill, one side, no enlargement, sizes clamped', async () => {
    const cases: Array<[string, [number, number], string]> = [
      ['width=200&height=200', [200, 200], 'height:200,width:200,resizing_type:fill'],
      ['width=200&height=200&resize=cover', [200, 200], 'height:200,width:200,resizing_type:fill'],
      ['width=200&height=200&resize=contain', [200, 150], 'height:200,width:200,resizing_type:fit'],
      ['width=200&height=200&resize=fill', [200, 200], 'height:200,width:200,resizing_type:force'],
      ['width=200&height=600', [200, 300], 'height:600,width:200,resizing_type:fill'],
      ['width=100', [100, 75], 'width:100,resizing_type:fill'],
      ['height=600', [400, 300], 'height:600,resizing_type:fill'],
      ['width=5000', [400, 300], 'width:2000,resizing_type:fill'],
    ];
    for (const [query, size, transformations] of cases) {
      const res = await fetch(url(`/render/image/authenticated/${privateBucket}/photo.jpg?${query}`), {
        headers: adminHeaders(),
      });
      expect(res.status, query).toBe(200);
      expect(res.headers.get('x-transformations'), query).toBe(transformations);
      const out = await image(res);
      expect([out.width, out.height], query).toEqual(size);
    }
    // The red band is the left quarter of the source: a stretch keeps it a quarter of the width (to
    // x=50), a centred square crop leaves a sixth of it (to x≈33).
    const redAt = async (resize: string, x: number) => {
      const res = await fetch(
        url(`/render/image/authenticated/${privateBucket}/photo.jpg?width=200&height=200&resize=${resize}`),
        { headers: adminHeaders() },
      );
      const { data } = await sharp(Buffer.from(await res.arrayBuffer()))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixel = (100 * 200 + x) * 3;
      return data[pixel]! > 200 && data[pixel + 2]! < 100;
    };
    expect([await redAt('fill', 20), await redAt('fill', 42)]).toEqual([true, true]);
    expect([await redAt('cover', 20), await redAt('cover', 42)]).toEqual([true, false]);
  });

  it('crops where the gravity says: an edge, a focal point, offsets, or the smart crop', async () => {
    // The red band is the left quarter: a 100×100 crop of the 133×100 resize shows it at x=20 only
    // when the crop is pinned to the west.
    const crop = async (query: string) => {
      const res = await fetch(
        url(`/render/image/authenticated/${privateBucket}/photo.jpg?width=100&height=100&${query}`),
        { headers: adminHeaders() },
      );
      expect(res.status, query).toBe(200);
      const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixel = (50 * info.width + 20) * 3;
      return {
        transformations: res.headers.get('x-transformations'),
        size: [info.width, info.height],
        redAt20: data[pixel]! > 200 && data[pixel + 2]! < 100,
      };
    };
    expect(await crop('gravity=we')).toEqual({
      transformations: 'height:100,width:100,resizing_type:fill,gravity:we',
      size: [100, 100],
      redAt20: true,
    });
    expect((await crop('gravity=ea')).redAt20).toBe(false);
    expect((await crop('gravity=ce')).redAt20).toBe(false);
    expect(await crop('gravity=fp&x_offset=0&y_offset=0.5')).toMatchObject({
      transformations: 'height:100,width:100,resizing_type:fill,gravity:fp:0:0.5',
      redAt20: true,
    });
    // West, moved 30 px inwards: x=20 of the crop is x=50 of the resize, past the band (to x≈33).
    expect(await crop('gravity=we&x_offset=30')).toMatchObject({
      transformations: 'height:100,width:100,resizing_type:fill,gravity:we:30:0',
      redAt20: false,
    });
    expect(await crop('gravity=sm')).toMatchObject({ size: [100, 100] });
  });

  it('answers WebP when Accept allows it, the source format for `origin`, and the asked format', async () => {
    const get = (query: string, accept?: string) =>
      fetch(url(`/render/image/authenticated/${privateBucket}/photo.jpg?${query}`), {
        headers: { ...adminHeaders(), ...(accept ? { Accept: accept } : {}) },
      });
    const webp = await get('width=100', 'image/avif,image/webp,*/*');
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect((await image(webp)).format).toBe('webp');
    const origin = await get('width=100&format=origin', 'image/webp,*/*');
    expect(origin.headers.get('content-type')).toBe('image/jpeg');
    expect((await image(origin)).format).toBe('jpeg');
    const avif = await get('width=100&format=avif');
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect((await image(avif)).format).toBe('heif');
    const plain = await get('width=100');
    expect(plain.headers.get('content-type')).toBe('image/jpeg');
    const low = await image(await get('width=300&quality=20'));
    const high = await image(await get('width=300&quality=100'));
    expect(low.bytes).toBeLessThan(high.bytes);
  });

  it("sends the object's ETag and Cache-Control, and `download` as an attachment", async () => {
    const res = await fetch(
      url(`/render/image/authenticated/${privateBucket}/photo.jpg?width=50&download=small.jpg`),
      { headers: adminHeaders() },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('max-age=60');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers.get('content-disposition')).toBe(
      "attachment; filename=small.jpg; filename*=UTF-8''small.jpg",
    );
    expect(Number(res.headers.get('content-length'))).toBe((await res.arrayBuffer()).byteLength);
  });
});

describe('authorization', () => {
  let owner: { id: string; client: SupabaseClient };
  let outsider: SupabaseClient;
  let bucket: string;

  beforeAll(async () => {
    bucket = await newBucket('render-folders', false);
    const own = `bucket_id = '${bucket}' and (storage.foldername(name))[1] = (select auth.uid())::text`;
    await sql(`
      create policy "render read own ${run}" on storage.objects for select to authenticated using (${own});
      create policy "render write own ${run}" on storage.objects for insert to authenticated with check (${own});
    `);
    const signIn = async (tag: string) => {
      const user = await confirmedUser(tag);
      const client = anonClient();
      const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
      if (error) throw error;
      return { id: user.id, client };
    };
    owner = await signIn('render-owner');
    outsider = (await signIn('render-outsider')).client;
    const { error } = await owner.client.storage
      .from(bucket)
      .upload(`${owner.id}/me.jpg`, await photo(), { contentType: 'image/jpeg' });
    if (error) throw error;
  });

  afterAll(async () => {
    await sql(`drop policy "render read own ${run}" on storage.objects;
      drop policy "render write own ${run}" on storage.objects;`);
  });

  it('renders for whoever row-level security lets read the object, and no one else', async () => {
    const path = `${owner.id}/me.jpg`;
    const mine = await owner.client.storage.from(bucket).download(path, { transform: { width: 64 } });
    expect(mine.error).toBeNull();
    expect(mine.data?.type).toBe('image/jpeg');
    const theirs = await outsider.storage.from(bucket).download(path, { transform: { width: 64 } });
    expect(theirs.error).toMatchObject({ statusCode: '404' });
    // Without a token: the answer of the plain authenticated download route.
    const anonymous = await fetch(url(`/render/image/authenticated/${bucket}/${path}?width=64`));
    const plain = await fetch(url(`/object/authenticated/${bucket}/${path}`));
    expect(anonymous.status).toBe(plain.status);
    expect(await anonymous.json()).toEqual(await plain.json());
  });

  it('renders public objects without a key, and only from public buckets', async () => {
    const { data } = anonClient()
      .storage.from(publicBucket)
      .getPublicUrl('photo.jpg', { transform: { width: 80, height: 60, quality: 70 } });
    expect(data.publicUrl).toContain('/render/image/public/');
    const res = await fetch(data.publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-transformations')).toBe('height:60,width:80,resizing_type:fill,quality:70');
    expect(await image(res)).toMatchObject({ width: 80, height: 60 });
    const hidden = await fetch(url(`/render/image/public/${privateBucket}/photo.jpg?width=80`));
    expect(hidden.status).toBe(400);
    expect(await hidden.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
  });

  it('signs the transformation into the token, and the signed URL renders only that', async () => {
    const { data, error } = await adminClient()
      .storage.from(privateBucket)
      .createSignedUrl('photo.jpg', 600, { transform: { width: 200, height: 200, quality: 60 } });
    expect(error).toBeNull();
    const signed = new URL(data!.signedUrl);
    expect(signed.pathname).toBe(`/storage/v1/render/image/sign/${privateBucket}/photo.jpg`);
    const claims = jose.decodeJwt(signed.searchParams.get('token')!);
    expect(claims).toMatchObject({
      url: `${privateBucket}/photo.jpg`,
      scope: 'download',
      transformations: 'height:200,width:200,quality:60',
    });
    signed.searchParams.set('width', '20');
    const res = await fetch(signed);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-transformations')).toBe('height:200,width:200,resizing_type:fill,quality:60');
    expect(res.headers.get('expires')).toBe(new Date((claims.exp as number) * 1000).toUTCString());
    expect(res.headers.get('cache-control')).toBeNull();
    expect(await image(res)).toMatchObject({ width: 200, height: 200 });

    const west = await adminClient()
      .storage.from(privateBucket)
      .createSignedUrl('photo.jpg', 600, {
        transform: { width: 100, height: 100, resize: 'cover', gravity: 'we' } as Record<string, unknown>,
      });
    const westToken = new URL(west.data!.signedUrl).searchParams.get('token')!;
    expect(jose.decodeJwt(westToken).transformations).toBe('height:100,width:100,resize:cover,gravity:we');
    const westImage = await fetch(west.data!.signedUrl);
    expect(westImage.headers.get('x-transformations')).toBe(
      'height:100,width:100,resizing_type:fill,gravity:we',
    );

    const plain = await adminClient()
      .storage.from(privateBucket)
      .createSignedUrl('photo.jpg', 600, { transform: {} });
    expect(new URL(plain.data!.signedUrl).pathname).toBe(
      `/storage/v1/object/sign/${privateBucket}/photo.jpg`,
    );
    const asIs = await fetch(plain.data!.signedUrl.replace('/object/sign/', '/render/image/sign/'));
    expect(asIs.status).toBe(200);
    expect(asIs.headers.get('x-transformations')).toBeNull();
    expect(await image(asIs)).toMatchObject({ width: 400, height: 300 });

    const elsewhere = await fetch(
      url(`/render/image/sign/${publicBucket}/photo.jpg?token=${signed.searchParams.get('token')}`),
    );
    expect(await elsewhere.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });
  });
});

describe('refusals', () => {
  const get = async (rest: string) => {
    const res = await fetch(url(rest), { headers: adminHeaders() });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const invalid = (message: string) => ({
    status: 400,
    body: { statusCode: '400', code: 'InvalidRequest', error: 'Bad Request', message },
  });

  it('answers bad parameters with 400 and the schema message, never 500', async () => {
    const base = `/render/image/authenticated/${privateBucket}/photo.jpg?`;
    expect(await get(`${base}width=abc`)).toEqual(invalid('querystring/width must be integer'));
    expect(await get(`${base}height=1.5`)).toEqual(invalid('querystring/height must be integer'));
    expect(await get(`${base}width=-1`)).toEqual(invalid('querystring/width must be >= 0'));
    expect(await get(`${base}quality=10`)).toEqual(invalid('querystring/quality must be >= 20'));
    expect(await get(`${base}quality=101`)).toEqual(invalid('querystring/quality must be <= 100'));
    expect(await get(`${base}resize=stretch`)).toEqual(
      invalid('querystring/resize must be equal to one of the allowed values'),
    );
    expect(await get(`${base}format=png`)).toEqual(
      invalid('querystring/format must be equal to one of the allowed values'),
    );
    expect(await get(`${base}gravity=up`)).toEqual(
      invalid('querystring/gravity must be equal to one of the allowed values'),
    );
    expect(await get(`${base}gravity=we&x_offset=left`)).toEqual(
      invalid('querystring/x_offset must be number'),
    );
    expect(await get(`${base}gravity=fp&x_offset=0.5`)).toEqual(
      invalid(`querystring must have required property 'y_offset', querystring must match "then" schema`),
    );
    expect(await get(`${base}gravity=fp&x_offset=2&y_offset=0.5`)).toEqual(
      invalid('querystring/x_offset must be <= 1, querystring must match "then" schema'),
    );
    expect(await get(`/render/image/sign/${privateBucket}/photo.jpg`)).toEqual(
      invalid("querystring must have required property 'token'"),
    );
    const sign = await adminClient()
      .storage.from(privateBucket)
      .createSignedUrl('photo.jpg', 60, { transform: { width: 'wide' as unknown as number } });
    expect(sign.error).toMatchObject({ statusCode: '400', message: 'body/transform/width must be integer' });
  });

  it('answers a source that is not an image, or not a whole one, as storage-api does', async () => {
    const refused = {
      status: 400,
      body: {
        statusCode: '400',
        code: 'InvalidRequest',
        error: 'InvalidRequest',
        message: 'The source image is invalid or unsupported for rendering',
      },
    };
    expect(await get(`/render/image/authenticated/${privateBucket}/notes.txt?width=10`)).toEqual(refused);
    expect(await get(`/render/image/authenticated/${privateBucket}/broken.jpg?width=10`)).toEqual(refused);
    expect(await get(`/render/image/authenticated/${privateBucket}/missing.jpg?width=10`)).toMatchObject({
      status: 400,
      body: { statusCode: '404', code: 'NoSuchKey' },
    });
  });
});
