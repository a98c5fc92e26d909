import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, isPortFree } from './net.ts';

describe('freePort', () => {
  it('picks a port below the range outgoing connections take their ports from, and one that can be listened on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20000);
      expect(port).toBeLessThan(32768);
    }
    const port = ports[0]!;
    expect(await isPortFree(port)).toBe(true);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    try {
      expect(await isPortFree(port)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
