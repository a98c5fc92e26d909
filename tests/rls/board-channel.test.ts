// The private realtime channel of a board (`board:<project_id>`): members of its workspace join it
// and show themselves there (presence); nobody else can join (policies on realtime.messages).
import type { RealtimeChannel } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinBoardChannel } from '../support/realtime.ts';
import { scene, type Person, type Scene } from '../support/scene.ts';

const join = (p: Person, topic: string) => joinBoardChannel(p.client, topic, p.id);

describe('board channels', () => {
  let s: Scene;
  const joined: Array<{ p: Person; channel: RealtimeChannel }> = [];
  beforeAll(async () => {
    s = await scene();
  });
  afterAll(async () => {
    for (const { p, channel } of joined) await p.client.removeChannel(channel);
  });

  it('let every member join and be seen, and refuse outsiders', async () => {
    const topic = `board:${s.project}`;
    for (const p of [s.viewer, s.member]) {
      const { channel, error } = await join(p, topic);
      joined.push({ p, channel });
      expect(error).toBeUndefined();
      expect(await channel.track({ name: p.id })).toBe('ok');
    }
    const viewerChannel = joined[0]?.channel;
    await expect
      .poll(() => Object.keys(viewerChannel?.presenceState() ?? {}).sort(), { timeout: 3000 })
      .toEqual([s.member.id, s.viewer.id].sort());

    const outsider = await join(s.outsider, topic);
    joined.push({ p: s.outsider, channel: outsider.channel });
    expect(outsider.error).toMatch(/Unauthorized/);
  });

  it('refuse a topic that names no board of the member', async () => {
    const { channel, error } = await join(s.member, `board:${crypto.randomUUID()}`);
    joined.push({ p: s.member, channel });
    expect(error).toMatch(/Unauthorized/);
  });
});
