import { execFileSync } from 'node:child_process';
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

  // A port is picked before its server binds it. Without the promise, 300 random picks from the
  // 12,768 low ports repeat one about 97 times in 100, and two sets of 200 share one about 95.
  it('never hands out a port it has promised in the last two minutes', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('nor one another process has promised', async () => {
    const theirs = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { freePort } = await import(${JSON.stringify(new URL('./net.ts', import.meta.url).href)});
         const ports = [];
         for (let i = 0; i < 200; i++) ports.push(await freePort());
         console.log(JSON.stringify(ports));`,
      ],
      { encoding: 'utf8' },
    );
    const taken = new Set(JSON.parse(theirs) as number[]);
    expect(taken.size).toBe(200);
    const mine: number[] = [];
    for (let i = 0; i < 200; i++) mine.push(await freePort());
    expect(mine.filter((port) => taken.has(port))).toEqual([]);
  });
});
