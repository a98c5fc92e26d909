import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendFetch } from './backend-fetch.server.ts';

let server: http.Server;
let base = '';
const seen: Array<{ method?: string; url?: string; body: string; headers: http.IncomingHttpHeaders }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, body, headers: req.headers });
      if (req.url?.startsWith('/rest/v1/empty')) {
        res.writeHead(204, { 'Content-Range': '*/0' });
        res.end();
      } else if (req.url?.startsWith('/rest/v1/slow')) {
        setTimeout(() => res.end('late'), 2_000);
      } else {
        res.writeHead(req.url?.includes('missing') ? 404 : 200, [
          ['Content-Type', 'application/json'],
          ['X-Twice', 'a'],
          ['X-Twice', 'b'],
        ]);
        res.end(JSON.stringify({ method: req.method, body }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('backendFetch', () => {
  it('carries a REST call and its JSON body, and answers a Response with status and headers', async () => {
    const res = await backendFetch(`${base}/rest/v1/rpc/board_page`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' },
      body: JSON.stringify({ name: 'été' }),
    });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-twice')).toBe('a, b');
    expect(await res.json()).toEqual({ method: 'POST', body: '{"name":"été"}' });
    const sent = seen.at(-1);
    expect(sent?.headers.authorization).toBe('Bearer t');
    expect(sent?.headers['content-length']).toBe(String(Buffer.byteLength('{"name":"été"}')));
  });

  it('answers statuses without a body with an empty one, and errors as they are', async () => {
    const empty = await backendFetch(`${base}/rest/v1/empty`, { method: 'HEAD' });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    const missing = await backendFetch(`${base}/rest/v1/missing`);
    expect(missing.status).toBe(404);
    expect(missing.ok).toBe(false);
  });

  it('rejects like fetch when the backend cannot be reached, or the call is aborted', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(backendFetch(`http://127.0.0.1:${port}/rest/v1/x`)).rejects.toThrow(TypeError);
    const controller = new AbortController();
    const pending = backendFetch(`${base}/rest/v1/slow`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow();
  });

  it('leaves other services and bodies to fetch', async () => {
    const res = await backendFetch(`${base}/storage/v1/object/x`, {
      method: 'PUT',
      body: new Blob(['file']),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'PUT', body: 'file' });
  });
});
