// Every change reaches its subscriber exactly once: long runs of inserts into public.tasks (under its
// RLS policies) one after another through the REST API, and in bursts of concurrent transactions,
// each heard by a member listening to the project. A change lost or repeated anywhere between the
// replication stream and the websocket fails here, naming which.
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from '../../tests/support/backend.ts';
import { scene, type Person, type Scene } from '../../tests/support/scene.ts';
import { until } from '../../tests/support/until.ts';

const channels: Array<{ p: Person; channel: RealtimeChannel }> = [];

/** The titles of the tasks inserted into `project` that `p` hears of, once realtime listens. */
async function listen(p: Person, project: string): Promise<string[]> {
  const heard: string[] = [];
  const channel = p.client
    .channel(`delivery-${randomUUID()}`)
    .on<{ title: string }>(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'tasks', filter: `project_id=eq.${project}` },
      (payload) => heard.push(payload.new.title),
    );
  channels.push({ p, channel });
  await new Promise<void>((resolve, reject) => {
    let joined = false;
    let listening = false;
    channel.on('system', {}, (payload: { extension: string; status: string; message: string }) => {
      if (payload.extension !== 'postgres_changes') return;
      if (payload.status !== 'ok') reject(new Error(payload.message));
      listening = true;
      if (joined) resolve();
    });
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') {
        joined = true;
        if (listening) resolve();
      } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
    });
  });
  return heard;
}

/**
 * Waits for every title to be heard, then for one more insert (changes arrive in commit order, so a
 * repeat of an earlier one would be there before it), and expects each exactly once.
 */
async function expectEachOnce(
  heard: string[],
  titles: string[],
  insertLast: (title: string) => Promise<void>,
) {
  const last = `last ${randomUUID()}`;
  // Generous for a loaded machine: a change that arrives at all arrives within a second or two.
  await until(
    'every change',
    () => (titles.every((t) => heard.includes(t)) ? true : undefined),
    15_000,
  ).catch(() => undefined);
  await insertLast(last);
  await until('the last change', () => (heard.includes(last) ? true : undefined), 15_000).catch(
    () => undefined,
  );
  const missing = titles.filter((t) => !heard.includes(t));
  const repeated = titles.filter((t) => heard.indexOf(t) !== heard.lastIndexOf(t));
  expect({ missing, repeated, lastHeard: heard.includes(last) }).toEqual({
    missing: [],
    repeated: [],
    lastHeard: true,
  });
}

describe('postgres_changes delivery', () => {
  let s: Scene;
  let db: pg.Pool;

  beforeAll(async () => {
    s = await scene();
    db = new pg.Pool({ connectionString: backend().dbUrl, max: 8 });
  });
  afterAll(async () => {
    for (const { p, channel } of channels) await p.client.removeChannel(channel);
    await db.end();
  });

  const insertAsMember = async (title: string) => {
    const { error } = await s.member.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: s.project, title });
    if (error) throw error;
  };

  it('delivers each of 200 inserts made one after another exactly once', { timeout: 120_000 }, async () => {
    const heard = await listen(s.viewer, s.project);
    const titles: string[] = [];
    for (let i = 0; i < 200; i++) {
      const title = `one by one ${i} ${randomUUID().slice(0, 8)}`;
      titles.push(title);
      await insertAsMember(title);
    }
    await expectEachOnce(heard, titles, insertAsMember);
  });

  it(
    'delivers each insert of bursts of concurrent transactions exactly once',
    { timeout: 120_000 },
    async () => {
      const heard = await listen(s.viewer, s.project);
      const titles: string[] = [];
      const insert = async (rows: string[]) => {
        const client = await db.connect();
        try {
          await client.query('begin');
          for (const title of rows) {
            await client.query(
              'insert into public.tasks (workspace_id, project_id, title, created_by) values ($1, $2, $3, $4)',
              [s.ws, s.project, title, s.member.id],
            );
          }
          await client.query('commit');
        } finally {
          client.release();
        }
      };
      // 20 bursts of 8 transactions at once, of one to three rows each: 320 rows.
      for (let burst = 0; burst < 20; burst++) {
        const transactions = Array.from({ length: 8 }, (_, t) =>
          Array.from(
            { length: 1 + ((burst + t) % 3) },
            (_, r) => `burst ${burst}.${t}.${r} ${randomUUID().slice(0, 8)}`,
          ),
        );
        titles.push(...transactions.flat());
        await Promise.all(transactions.map(insert));
      }
      expect(titles.length).toBe(320);
      await expectEachOnce(heard, titles, async (title) => insert([title]));
    },
  );
});
