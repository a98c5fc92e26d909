// /readyz against stand-in backends: every part down, one part failing, one part silent. The live
// backend's answer is tested in tests/http/readyz.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadConfig } from '../utils/env.server.ts';
import { freePort } from '../../emulator/lib/net.ts';
import { loader } from './readyz.ts';

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  vi.unstubAllEnvs();
  reloadConfig();
});

function pointAt(url: string): void {
  vi.stubEnv('SUPABASE_URL', url);
  reloadConfig();
}

/** A backend whose parts answer as `answer` says; `undefined` never answers. */
async function standIn(answer: (method: string, path: string) => number | undefined): Promise<string> {
  const server = http.createServer((req, res) => {
    const status = answer(req.method ?? '', req.url ?? '');
    if (status === undefined) return;
    res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('/readyz', () => {
  it('answers 503 naming every part when nothing listens at SUPABASE_URL', async () => {
    pointAt(`http://127.0.0.1:${await freePort()}`);
    const res = await loader();
    expect(res.status).toBe(503);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { auth: 'down', rest: 'down', storage: 'down' },
      reasons: { auth: 'unreachable', rest: 'unreachable', storage: 'unreachable' },
    });
  });

  it('names the one part that fails, and counts a 4xx as an answer', async () => {
    pointAt(
      await standIn((method, path) => {
        if (path === '/auth/v1/health') return 200;
        if (method === 'HEAD' && path === '/rest/v1/') return 503;
        if (path === '/storage/v1/bucket') return 403;
        return 404;
      }),
    );
    const res = await loader();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { auth: 'ok', rest: 'down', storage: 'ok' },
      reasons: { rest: 'HTTP 503' },
    });
  });

  it('gives up on parts that do not answer within 2 s, asking all parts at once', async () => {
    pointAt(await standIn((method) => (method === 'HEAD' ? 200 : undefined)));
    const started = Date.now();
    const res = await loader();
    const took = Date.now() - started;
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { auth: 'down', rest: 'ok', storage: 'down' },
      reasons: { auth: 'no answer within 2000 ms', storage: 'no answer within 2000 ms' },
    });
    // One after the other, two silent parts would take 4 s.
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(3500);
  });

  it('answers 200 when every part answers', async () => {
    pointAt(await standIn(() => 200));
    const res = await loader();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { auth: 'ok', rest: 'ok', storage: 'ok' } });
  });
});
