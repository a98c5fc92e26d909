// Notification preferences and notification email under row-level security: each person reads and
// sets only their own preferences, nobody counts anyone else's, anonymous callers read none; the
// email outbox and its RPCs are the service role's alone (send-notifications answers 403 to every
// signed-in role); the unsubscribe RPC is open to all but needs a real token.
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient, backend } from '../support/backend.ts';
import { person, type Person } from '../support/scene.ts';

describe('notification preferences', () => {
  let ada: Person;
  let grace: Person;
  beforeAll(async () => {
    [ada, grace] = await Promise.all([person('prefs-ada'), person('prefs-grace')]);
    const { error } = await ada.client
      .from('notification_preferences')
      .insert({ user_id: ada.id, email_frequency: 'daily', email_kinds: ['mentioned'] });
    expect(error).toBeNull();
  });

  it('are read and changed by their owner', async () => {
    const { data } = await ada.client.from('notification_preferences').select('email_frequency');
    expect(data).toEqual([{ email_frequency: 'daily' }]);
    const updated = await ada.client
      .from('notification_preferences')
      .update({ email_frequency: 'hourly' })
      .eq('user_id', ada.id)
      .select('email_frequency');
    expect(updated.data).toEqual([{ email_frequency: 'hourly' }]);
  });

  it('are neither read, counted, changed, made nor deleted by anyone else', async () => {
    const read = await grace.client.from('notification_preferences').select('*').eq('user_id', ada.id);
    expect(read.data).toEqual([]);
    const counted = await grace.client
      .from('notification_preferences')
      .select('*', { count: 'exact', head: true });
    expect(counted.count).toBe(0);
    const changed = await grace.client
      .from('notification_preferences')
      .update({ email_frequency: 'never' })
      .eq('user_id', ada.id)
      .select('user_id');
    expect(changed.data).toEqual([]);
    const forged = await grace.client
      .from('notification_preferences')
      .insert({ user_id: ada.id, email_frequency: 'never' });
    expect(forged.error?.code).toBe('42501');
    const deleted = await grace.client.from('notification_preferences').delete().eq('user_id', ada.id);
    expect(deleted.error?.code).toBe('42501');
    const anon = await anonClient().from('notification_preferences').select('*');
    expect(anon.error?.code).toBe('42501');
    const { data } = await ada.client.from('notification_preferences').select('email_frequency');
    expect(data).toEqual([{ email_frequency: 'hourly' }]);
  });

  it('refuse a kind or frequency that does not exist', async () => {
    const { error } = await grace.client
      .from('notification_preferences')
      .insert({ user_id: grace.id, email_kinds: ['everything'], email_frequency: 'weekly' });
    expect(error?.code).toBe('23514');
  });
});

describe('notification email', () => {
  let ada: Person;
  beforeAll(async () => {
    ada = await person('email-ada');
  });

  it('is sent by the service role only: send-notifications and the outbox RPCs refuse everyone else', async () => {
    const res = await fetch(`${backend().apiUrl}/functions/v1/send-notifications`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${(await ada.client.auth.getSession()).data.session?.access_token}`,
      },
    });
    expect(res.status).toBe(403);
    for (const client of [ada.client, anonClient()]) {
      const claimed = await client.rpc('claim_notification_emails', {});
      expect(claimed.error?.code).toBe('42501');
      const sent = await client.rpc('notification_email_sent', { email_id: 1 });
      expect(sent.error?.code).toBe('42501');
    }
  });

  it('unsubscribes nobody with a made-up token, signed in or not', async () => {
    for (const client of [ada.client, anonClient()]) {
      const { data } = await client.rpc('unsubscribe_notification_emails', {
        token: `${ada.id}.${'0'.repeat(64)}`,
        apply: true,
      });
      expect(data).toBe('invalid');
    }
    const { data } = await ada.client.from('notification_preferences').select('email_frequency');
    expect(data).toEqual([]);
  });
});
