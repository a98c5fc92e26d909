// The private realtime channel of a board (`board:<project_id>`): members of its workspace join it
// and show themselves there (presence); nobody else can join (policies on realtime.messages).
import type { RealtimeChannel } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scene, type Person, type Scene } from '../support/scene.ts';

function join(p: Person, topic: string): Promise<{ channel: RealtimeChannel; error?: string }> {
  // Presence is on only for channels that listen to it (realtime-js), as the board does.
  const channel = p.client
    .channel(topic, { config: { private: true, presence: { key: p.id } } })
    .on('presence', { event: 'sync' }, () => {});
  return new Promise((resolve) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve({ channel });
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
        resolve({ channel, error: error?.message ?? status });
    });
  });
}

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
