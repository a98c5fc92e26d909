// Realtime channels joined through supabase-js as the app joins them, for tests of who hears what.
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';

/**
 * Subscribes `channel` and resolves once it is joined and realtime listens to the database for it
 * (the `system` message of postgres_changes); a refusal rejects.
 */
export function listening(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    let subscribed = false;
    let ready = false;
    channel.on('system', {}, (payload: { extension?: string; status?: string; message?: string }) => {
      if (payload.extension !== 'postgres_changes') return;
      if (payload.status !== 'ok') reject(new Error(payload.message));
      ready = true;
      if (subscribed) resolve();
    });
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') {
        subscribed = true;
        if (ready) resolve();
      } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
    });
  });
}

/**
 * Joins a board's private channel (`board:<project id>`) as the board page does, with presence
 * under `presenceKey`. Resolves with the channel and, when it was refused, the refusal's message.
 * A refused channel is removed from the client: it would stay in its list under its topic, and a
 * later join of that topic needs a new one.
 */
export function joinBoardChannel(
  client: SupabaseClient,
  topic: string,
  presenceKey: string = randomUUID(),
): Promise<{ channel: RealtimeChannel; error?: string }> {
  // Presence is on only for channels that listen to it (realtime-js), as the board does.
  const channel = client
    .channel(topic, { config: { private: true, presence: { key: presenceKey } } })
    .on('presence', { event: 'sync' }, () => {});
  return new Promise((resolve) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve({ channel });
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
        void client.removeChannel(channel).then(() => resolve({ channel, error: error?.message ?? status }));
    });
  });
}
