import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SCHEDULE_INTERVAL_MS,
  readSchedule,
  scheduleIntervalMs,
  startScheduler,
  type ScheduledJob,
} from './scheduler.ts';

const roots: string[] = [];
function projectWith(schedule: string | null): string {
  const root = mkdtempSync(path.join(tmpdir(), 'schedule-project-'));
  roots.push(root);
  mkdirSync(path.join(root, 'supabase'));
  if (schedule !== null) writeFileSync(path.join(root, 'supabase', 'schedule.toml'), schedule);
  return root;
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const job = (name: string): ScheduledJob => ({ name, function: name, cron: '* * * * *', body: '{}' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('readSchedule', () => {
  it('reads the jobs, with an empty JSON body by default, and none without the file', () => {
    const root = projectWith(
      `[[jobs]]\nname = "purge"\nfunction = "purge-trash"\ncron = "17 3 * * *"\n\n[[jobs]]\nname = "digest"\nfunction = "send-digest"\ncron = "0 7 * * 1"\nbody = '{"weekly": true}'\n`,
    );
    expect(readSchedule(root)).toEqual([
      { name: 'purge', function: 'purge-trash', cron: '17 3 * * *', body: '{}' },
      { name: 'digest', function: 'send-digest', cron: '0 7 * * 1', body: '{"weekly": true}' },
    ]);
    expect(readSchedule(projectWith(null))).toEqual([]);
  });

  it('reads a job’s own interval setting, and refuses a malformed one', () => {
    const root = projectWith(
      `[[jobs]]\nname = "n"\nfunction = "send"\ncron = "* * * * *"\ninterval_env = "NOTIFY_EVERY"\ninterval_default = 60\n`,
    );
    expect(readSchedule(root)).toEqual([
      {
        name: 'n',
        function: 'send',
        cron: '* * * * *',
        body: '{}',
        interval: { env: 'NOTIFY_EVERY', defaultSeconds: 60 },
      },
    ]);
    const head = `[[jobs]]\nname = "n"\nfunction = "send"\ncron = "* * * * *"\n`;
    expect(() => readSchedule(projectWith(`${head}interval_env = "x y"\ninterval_default = 1\n`))).toThrow(
      /must name an environment variable/,
    );
    expect(() => readSchedule(projectWith(`${head}interval_env = "N"\n`))).toThrow(/number of seconds/);
    expect(() => readSchedule(projectWith(`${head}interval_default = 5\n`))).toThrow(/needs an/);
  });

  it('refuses a job without a name, with a taken name, a bad function, cron or body, naming it', () => {
    const bad = {
      'give it a name': `[[jobs]]\nfunction = "a"\ncron = "* * * * *"\n`,
      'taken by an earlier job': `[[jobs]]\nname = "a"\nfunction = "a"\ncron = "* * * * *"\n[[jobs]]\nname = "a"\nfunction = "b"\ncron = "* * * * *"\n`,
      '`function` must name': `[[jobs]]\nname = "a"\nfunction = "../x"\ncron = "* * * * *"\n`,
      '`cron` must have five fields': `[[jobs]]\nname = "a"\nfunction = "a"\ncron = "every day"\n`,
      '`body` is not JSON': `[[jobs]]\nname = "a"\nfunction = "a"\ncron = "* * * * *"\nbody = "{nope"\n`,
    };
    for (const [message, text] of Object.entries(bad))
      expect(() => readSchedule(projectWith(text))).toThrow(message);
  });
});

describe('scheduleIntervalMs', () => {
  it('reads seconds, 0 for off, an hour by default, and refuses anything else', () => {
    expect(scheduleIntervalMs({})).toBe(DEFAULT_SCHEDULE_INTERVAL_MS);
    expect(scheduleIntervalMs({ FUNCTIONS_SCHEDULE_INTERVAL: '90' })).toBe(90_000);
    expect(scheduleIntervalMs({ FUNCTIONS_SCHEDULE_INTERVAL: '0.5' })).toBe(500);
    expect(scheduleIntervalMs({ FUNCTIONS_SCHEDULE_INTERVAL: '0' })).toBe(0);
    expect(() => scheduleIntervalMs({ FUNCTIONS_SCHEDULE_INTERVAL: '1h' })).toThrow(/number of seconds/);
  });

  it('reads a job’s own setting when it names one, with its default, and the common one otherwise', () => {
    const own: ScheduledJob = { ...job('n'), interval: { env: 'NOTIFY_EVERY', defaultSeconds: 60 } };
    expect(scheduleIntervalMs({}, own)).toBe(60_000);
    expect(scheduleIntervalMs({ NOTIFY_EVERY: '2', FUNCTIONS_SCHEDULE_INTERVAL: '90' }, own)).toBe(2_000);
    expect(scheduleIntervalMs({ FUNCTIONS_SCHEDULE_INTERVAL: '90' }, job('p'))).toBe(90_000);
    expect(() => scheduleIntervalMs({ NOTIFY_EVERY: 'soon' }, own)).toThrow(/NOTIFY_EVERY must be a number/);
  });
});

describe('startScheduler', () => {
  it('runs every job each interval, not at the start, and nothing after stop', async () => {
    const called: string[] = [];
    const scheduler = startScheduler({
      jobs: [job('a'), job('b')],
      intervalMs: 40,
      call: async (j) => {
        called.push(j.name);
        return new Response('ok');
      },
      log: () => undefined,
    });
    expect(called).toEqual([]);
    await sleep(150);
    await scheduler.stop();
    const runs = scheduler.runs();
    expect(runs.a).toBeGreaterThanOrEqual(2);
    expect(runs.b).toBe(runs.a);
    const after = called.length;
    await sleep(100);
    expect(called.length).toBe(after);
  });

  it('skips a job’s turn while its last run is still going, logs failures, and keeps going', async () => {
    const lines: string[] = [];
    let calls = 0;
    const scheduler = startScheduler({
      jobs: [job('slow')],
      intervalMs: 30,
      call: async (_job, signal) => {
        calls += 1;
        if (calls === 1) throw new Error('connection refused');
        await new Promise((resolve) => {
          setTimeout(resolve, 200);
          signal.addEventListener('abort', resolve);
        });
        return new Response('done', { status: 500 });
      },
      log: (line) => lines.push(line),
    });
    await sleep(380);
    await scheduler.stop();
    expect(lines.some((l) => l.includes('slow → slow failed: Error: connection refused'))).toBe(true);
    expect(lines.some((l) => l.includes('still running; skipping this turn'))).toBe(true);
    expect(lines.some((l) => /slow → slow: 500 in \d+ ms done/.test(l))).toBe(true);
    // 380 ms at one turn per 30 ms is 12 turns; the 200 ms runs let only a few of them start.
    expect(calls).toBeLessThan(6);
  });

  it('runs each job at its own interval', async () => {
    const scheduler = startScheduler({
      jobs: [job('fast'), job('slow'), job('off')],
      intervalMs: (j) => ({ fast: 20, slow: 200, off: 0 })[j.name] ?? 0,
      call: async () => new Response('ok'),
      log: () => undefined,
    });
    await sleep(150);
    await scheduler.stop();
    const runs = scheduler.runs();
    expect(runs.fast).toBeGreaterThanOrEqual(3);
    expect(runs.slow).toBe(0);
    expect(runs.off).toBe(0);
  });

  it('does nothing with an interval of 0', async () => {
    let calls = 0;
    const scheduler = startScheduler({
      jobs: [job('a')],
      intervalMs: 0,
      call: async () => {
        calls += 1;
        return new Response('ok');
      },
      log: () => undefined,
    });
    await sleep(50);
    await scheduler.stop();
    expect(calls).toBe(0);
  });
});
