import { describe, expect, it } from 'vitest';
import {
  RESTART_BACKOFF,
  Supervisor,
  attemptAfterExit,
  describeExit,
  restartDelay,
  type Backoff,
  type Child,
  type Exit,
} from './supervise.ts';

describe('restart backoff', () => {
  it('doubles from 100 ms up to its ceiling', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10, 60].map((n) => restartDelay(n))).toEqual([
      100, 200, 400, 800, 1600, 3200, 4000, 4000, 4000,
    ]);
  });

  it('starts over once a child ran healthily long enough, and keeps counting otherwise', () => {
    expect(attemptAfterExit(5, RESTART_BACKOFF.healthyAfterMs)).toBe(0);
    expect(attemptAfterExit(5, RESTART_BACKOFF.healthyAfterMs - 1)).toBe(5);
    expect(attemptAfterExit(0, 10)).toBe(0);
  });

  it('says how a child ended', () => {
    expect(describeExit({ code: null, signal: 'SIGKILL' })).toBe('killed by SIGKILL');
    expect(describeExit({ code: 1, signal: null })).toBe('exit code 1');
  });
});

/** A child whose exit the test decides. */
class FakeChild implements Child {
  running = true;
  exited: Promise<Exit>;
  end!: (exit: Exit) => void;
  constructor(readonly pid: number) {
    this.exited = new Promise((resolve) => {
      this.end = (exit) => {
        this.running = false;
        resolve(exit);
      };
    });
  }
}

async function until(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

const quick: Backoff = { firstMs: 1, maxMs: 8, healthyAfterMs: 60_000 };

describe('Supervisor', () => {
  it('logs an exit, restarts with growing delays after failed starts, and calls back once serving', async () => {
    const lines: string[] = [];
    const started: FakeChild[] = [];
    const restarted: number[] = [];
    let failuresLeft = 0;
    const supervisor = new Supervisor<FakeChild>({
      name: 'thing',
      policy: quick,
      log: (line) => lines.push(line),
      onRestart: (child) => restarted.push(child.pid),
      start: async () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('port busy');
        }
        const child = new FakeChild(100 + started.length);
        started.push(child);
        return child;
      },
    });
    await supervisor.start();
    expect(supervisor.current?.pid).toBe(100);

    failuresLeft = 2;
    started[0]!.end({ code: null, signal: 'SIGKILL' });
    await until('the restart', () => restarted.length === 1);
    expect(restarted).toEqual([101]);
    expect(supervisor.current?.pid).toBe(101);
    expect(supervisor.restarts).toBe(1);
    expect(lines[0]).toBe('thing (pid 100) exited unexpectedly: killed by SIGKILL; restarting it');
    expect(lines.filter((l) => l.includes('restart failed (port busy)'))).toEqual([
      'thing: restart failed (port busy); next attempt in 2 ms',
      'thing: restart failed (port busy); next attempt in 4 ms',
    ]);
    expect(lines.at(-1)).toMatch(/^thing restarted \(pid 101\), serving \d+ ms after the exit$/);

    // And again: a second crash is restarted too.
    started[1]!.end({ code: 1, signal: null });
    await until('the second restart', () => restarted.length === 2);
    expect(supervisor.current?.pid).toBe(102);
  });

  it('restarts nothing once halted, and hands back the child that still runs', async () => {
    const started: FakeChild[] = [];
    const supervisor = new Supervisor<FakeChild>({
      name: 'thing',
      policy: quick,
      log: () => undefined,
      start: async () => {
        const child = new FakeChild(200 + started.length);
        started.push(child);
        return child;
      },
    });
    await supervisor.start();
    expect(await supervisor.halt()).toBe(started[0]);
    started[0]!.end({ code: 0, signal: null });
    await new Promise((r) => setTimeout(r, quick.maxMs * 3));
    expect(started).toHaveLength(1);
  });

  it('aborts a restart under way when halted', async () => {
    const first = new FakeChild(300);
    let aborted = false;
    let calls = 0;
    const supervisor = new Supervisor<FakeChild>({
      name: 'thing',
      policy: quick,
      log: () => undefined,
      start: (signal) => {
        calls += 1;
        if (calls === 1) return Promise.resolve(first);
        // A restart that would never finish by itself.
        return new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('stopping'));
          });
        });
      },
    });
    await supervisor.start();
    first.end({ code: null, signal: 'SIGKILL' });
    await until('the restart to begin', () => calls === 2);
    expect(await supervisor.halt()).toBeUndefined();
    expect(aborted).toBe(true);
  });
});
