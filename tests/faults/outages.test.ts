// Creates through the app survive an outage, and pages read during one answer 503 with one log line
// when it starts and one when it ends. Each create form carries a one-time key; a person who presses
// the button again after an error sends
// the same key, and the database keeps one row. Here a writer does exactly that through the
// production build while PostgreSQL and then PostgREST are killed under it: no acknowledged task is
// lost, none is saved twice, and creates succeed again within 15 s with no restart of anything.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../emulator/backend.ts';
import {
  createAppScene,
  formHeaders,
  postForm,
  startAppServer,
  type AppScene,
  type AppServer,
} from '../support/app-server.ts';
import { sql as sqlAt } from '../support/db.ts';
import { startPrivateBackend } from '../support/private-backend.ts';
import { until } from '../support/until.ts';

const RECOVERY_MS = 15_000;

let backend: Backend;
let app: AppServer;
let scene: AppScene;

const sql = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  sqlAt<R>(text, values, { url: backend.dbUrl });

const createTask = (title: string, key: string) =>
  postForm(app, scene.projectPath, { intent: 'create', title, status: scene.todo, key }, scene.cookie);

beforeAll(async () => {
  backend = await startPrivateBackend('faults');
  app = await startAppServer(backend);
  scene = await createAppScene(app, backend, 'faults');
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await backend?.stop();
});

describe('a create sent twice with its key', () => {
  it('makes one task, and the board carries a fresh key for the next one', async () => {
    const page = await (
      await fetch(`${app.url}${scene.projectPath}`, { headers: { Cookie: scene.cookie } })
    ).text();
    const key = /name="key" value="([0-9a-f-]{36})"/.exec(page)?.[1];
    expect(key).toBeDefined();
    const title = `Twice ${randomUUID().slice(0, 8)}`;
    expect((await createTask(title, key ?? '')).status).toBe(302);
    expect((await createTask(title, key ?? '')).status).toBe(302);
    const rows = await sql('select id from public.tasks where title = $1', [title]);
    expect(rows).toHaveLength(1);
    const next = await (
      await fetch(`${app.url}${scene.projectPath}`, { headers: { Cookie: scene.cookie } })
    ).text();
    expect(/name="key" value="([0-9a-f-]{36})"/.exec(next)?.[1]).not.toBe(key);
  });

  it('makes one comment', async () => {
    const title = `Commented ${randomUUID().slice(0, 8)}`;
    expect((await createTask(title, randomUUID())).status).toBe(302);
    const [task] = await sql<{ number: number }>('select number from public.tasks where title = $1', [title]);
    const taskPath = `${scene.projectPath}/t/${task?.number}`;
    const key = randomUUID();
    const body = `Said once ${key}`;
    for (let i = 0; i < 2; i++) {
      const res = await postForm(app, taskPath, { intent: 'comment', body, key }, scene.cookie);
      expect(res.status).toBe(302);
    }
    expect(await sql('select id from public.comments where body = $1', [body])).toHaveLength(1);
  });

  it('makes one project, and the repeat lands on it too', async () => {
    const key = randomUUID();
    const name = `Project ${key.slice(0, 8)}`;
    const first = await postForm(app, `/w/${scene.workspace}?index`, { name, key }, scene.cookie);
    const second = await postForm(app, `/w/${scene.workspace}?index`, { name, key }, scene.cookie);
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(await sql('select id from public.projects where name = $1', [name])).toHaveLength(1);
  });
});

/**
 * Creates tasks one after another through the app. A create that gets no redirect (an error page,
 * a cut connection, a timeout) may or may not have been saved, so it is sent again with the same key,
 * as a person pressing the button again would. A task counts as acknowledged once a redirect came.
 */
class Writer {
  readonly acknowledged: string[] = [];
  readonly acknowledgedAt: number[] = [];
  readonly failures: Array<{ at: number; what: string }> = [];
  private running = true;
  private readonly done: Promise<void>;

  constructor() {
    this.done = this.loop();
  }

  private async attempt(title: string, key: string): Promise<boolean> {
    try {
      const res = await fetch(`${app.url}${scene.projectPath}`, {
        method: 'POST',
        redirect: 'manual',
        headers: formHeaders(app, { Cookie: scene.cookie }),
        body: new URLSearchParams({ intent: 'create', title, status: scene.todo, key }),
        signal: AbortSignal.timeout(5_000),
      });
      const text = await res.text();
      if (res.status === 302) return true;
      this.failures.push({ at: Date.now(), what: `${res.status} ${text.slice(0, 80)}` });
    } catch (error) {
      this.failures.push({ at: Date.now(), what: (error as Error).message });
    }
    return false;
  }

  private async loop(): Promise<void> {
    for (let n = 1; this.running; n++) {
      const title = `Fault ${n} ${randomUUID().slice(0, 8)}`;
      const key = randomUUID();
      while (!(await this.attempt(title, key))) {
        if (!this.running) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      this.acknowledged.push(title);
      this.acknowledgedAt.push(Date.now());
    }
  }

  /** After a kill at `since`: when a create first failed, and when one was acknowledged after that. */
  async outage(since: number): Promise<{ failedAt: number; backAt: number }> {
    const failedAt = await until('a create to fail', () => this.failures.find((f) => f.at >= since)?.at);
    const backAt = await until(
      'an acknowledged create',
      () => this.acknowledgedAt.find((at) => at > failedAt),
      RECOVERY_MS + 5_000,
    );
    return { failedAt, backAt };
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

async function expectEveryTaskOnce(writer: Writer): Promise<void> {
  const rows = await sql<{ title: string; copies: number }>(
    "select title, count(*)::int as copies from public.tasks where title like 'Fault %' group by title",
  );
  const copies = new Map(rows.map((r) => [r.title, r.copies]));
  expect(
    writer.acknowledged.filter((title) => !copies.has(title)),
    'acknowledged tasks lost',
  ).toEqual([]);
  expect(
    rows.filter((r) => r.copies > 1),
    'tasks saved twice',
  ).toEqual([]);
}

describe('creates under a dying backend', () => {
  for (const part of ['postgres', 'postgrest'] as const) {
    it(`keeps every acknowledged task exactly once when ${part} is killed, and recovers within 15 s`, async () => {
      const writer = new Writer();
      await until('a few creates', () => (writer.acknowledged.length >= 5 ? true : undefined));
      const pid = backend.childPids()[part];
      expect(pid).toBeGreaterThan(0);
      const killedAt = Date.now();
      process.kill(pid ?? 0, 'SIGKILL');
      const { backAt } = await writer.outage(killedAt);
      expect(backAt - killedAt).toBeLessThan(RECOVERY_MS);
      const before = writer.acknowledged.length;
      await until('more creates after the recovery', () =>
        writer.acknowledged.length >= before + 5 ? true : undefined,
      );
      await writer.stop();
      await expectEveryTaskOnce(writer);
    }, 60_000);
  }
});

describe('pages while the database is down', () => {
  it('answer 503 and log one line when the outage starts and one when it ends, no stack', async () => {
    const pages = [scene.projectPath, `/w/${scene.workspace}`, '/account'];
    const read = async (page: string) =>
      (
        await fetch(`${app.url}${page}`, {
          headers: { Cookie: scene.cookie },
          redirect: 'manual',
          signal: AbortSignal.timeout(5_000),
        })
      ).status;
    expect(await Promise.all(pages.map(read))).toEqual([200, 200, 200]);
    const from = app.output().length;
    const pid = backend.childPids().postgres;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid ?? 0, 'SIGKILL');
    const statuses: number[] = [];
    await until(
      'pages to answer 503 and then 200 again',
      async () => {
        const round = await Promise.all(pages.map(read));
        statuses.push(...round);
        return statuses.includes(503) && round.every((status) => status === 200) ? true : undefined;
      },
      RECOVERY_MS,
    );
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(1);
    const log = app.output().slice(from);
    expect(log, log).not.toContain('body used already');
    expect(log, log).not.toMatch(/^\s+at /m);
    const outageLines = log.split('\n').filter((line) => /^Backend (unavailable|available again)/.test(line));
    expect(outageLines, log).toEqual([
      expect.stringMatching(
        /^Backend unavailable: the data API .+\. Pages that need it answer 503 until it is back\.$/,
      ),
      expect.stringMatching(/^Backend available again after \d+\.\d s; \d+ calls? to it failed meanwhile\.$/),
    ]);
  }, 60_000);
});
