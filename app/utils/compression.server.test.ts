import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressedResponse, MIN_COMPRESSED_BYTES, negotiateEncoding } from './compression.server.ts';

describe('negotiateEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0 and *', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=0')).toBeNull();
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding(null)).toBeNull();
  });
});

describe('compressedResponse', () => {
  const page = Buffer.from('<li class="card">Task</li>'.repeat(200));
  const respond = (body: Buffer, acceptEncoding: string | null, method = 'GET') =>
    compressedResponse(
      body,
      new Request('http://localhost/x', {
        method,
        headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {},
      }),
      { status: 200, headers: new Headers({ 'Content-Type': 'text/html' }) },
    );

  it('sends gzip that decodes to the page, with its length and Vary', async () => {
    const res = respond(page, 'gzip, deflate');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('Content-Length')).toBe(String(bytes.length));
    expect(res.headers.get('Vary')).toContain('Accept-Encoding');
    expect(zlib.gunzipSync(bytes).equals(page)).toBe(true);
  });

  it('sends brotli where it is offered', async () => {
    const res = respond(page, 'gzip, br');
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(Buffer.from(await res.arrayBuffer())).equals(page)).toBe(true);
  });

  it('sends small bodies, and clients that accept no encoding, the page as it is', async () => {
    const small = Buffer.from('x'.repeat(MIN_COMPRESSED_BYTES - 1));
    for (const res of [respond(small, 'gzip'), respond(page, null), respond(page, 'identity')]) {
      expect(res.headers.get('Content-Encoding')).toBeNull();
      expect(Number(res.headers.get('Content-Length'))).toBe((await res.arrayBuffer()).byteLength);
    }
  });
});
