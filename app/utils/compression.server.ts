// Compression of the pages and data the app renders, at a level made for dynamic responses.
//
// remix-serve compresses every answer with the `compression` middleware: gzip at level 6 (or brotli at
// quality 4), chunk by chunk as React writes them, which made compression the largest single cost in
// the CPU profile of a board load. The app compresses a rendered page once, whole, at a fast level,
// and marks it; the middleware passes an answer that already has a Content-Encoding through untouched
// (decision 009).
import zlib from 'node:zlib';

/** Below this, compression saves less than a packet and costs a call: sent as it is. */
export const MIN_COMPRESSED_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with, from the client's Accept-Encoding: brotli where it is accepted (browsers
 * offer it over https), else gzip; none when neither is, or when the client refuses them (`;q=0`).
 */
export function negotiateEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weightOf('br') > 0) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return null;
}

/**
 * The body compressed with `encoding` at a fast level: brotli quality 1, gzip level 1. (For the demo
 * board's 56 kB: brotli 1 takes 0.34 ms for 8.5 kB, brotli 4 0.71 ms for 7.4 kB, gzip 1 0.36 ms for
 * 8.9 kB, gzip 6 0.71 ms for 8.0 kB.) In the calling
 * thread: for a page (tens of kB, a fraction of a millisecond at these levels) the thread pool's
 * hand-off cost more CPU than the compression itself (0.3 against 0.1 ms for 15 kB).
 */
export function compress(body: Uint8Array, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : zlib.gzipSync(body, { level: 1 });
}

/**
 * A response whose body is `body`, compressed when the client accepts it and it is worth it. The
 * headers gain Content-Encoding, Content-Length and `Vary: Accept-Encoding`.
 */
export function compressedResponse(
  body: Uint8Array,
  request: Request,
  init: { status: number; headers: Headers },
): Response {
  const { headers } = init;
  headers.append('Vary', 'Accept-Encoding');
  const encoding = negotiateEncoding(request.headers.get('Accept-Encoding'));
  if (!encoding || body.byteLength < MIN_COMPRESSED_BYTES || request.method === 'HEAD') {
    headers.set('Content-Length', String(body.byteLength));
    return new Response(body as Uint8Array<ArrayBuffer>, init);
  }
  const packed = compress(body, encoding);
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(packed.byteLength));
  return new Response(packed as Uint8Array<ArrayBuffer>, init);
}
