import type { SupabaseClient, User } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import type { Database } from '~/types/database.ts';
import { invitationToken, landingAfterConfirmation } from './signup-invitation.server.ts';

const TOKEN = 'ab'.repeat(32);

/** A client that records what it was asked, and answers accept_invitation with `accepted`. */
function fakeClient(accepted: { slug: string } | null) {
  const calls: string[] = [];
  const client = {
    rpc: async (name: string, args: { token: string }) => {
      calls.push(`rpc ${name} ${args.token}`);
      return accepted ? { data: accepted, error: null } : { data: null, error: { code: 'PT404' } };
    },
    auth: {
      updateUser: async (attributes: { data: Record<string, unknown> }) => {
        calls.push(`updateUser ${JSON.stringify(attributes.data)}`);
        return { data: {}, error: null };
      },
    },
  };
  return { calls, client: client as unknown as SupabaseClient<Database> };
}

const userWith = (metadata: Record<string, unknown>) => ({ user_metadata: metadata }) as unknown as User;

describe('invitationToken', () => {
  it('takes 64 lowercase hex digits and nothing else', () => {
    expect(invitationToken(TOKEN)).toBe(TOKEN);
    for (const value of [TOKEN.toUpperCase(), `${TOKEN}0`, TOKEN.slice(1), '../w/x', null, 42, undefined])
      expect(invitationToken(value)).toBeNull();
  });
});

describe('landingAfterConfirmation', () => {
  it('accepts the carried invitation, forgets it, and lands in its workspace', async () => {
    const { calls, client } = fakeClient({ slug: 'crew' });
    expect(await landingAfterConfirmation(client, userWith({ invitation: TOKEN }), '/w')).toBe('/w/crew');
    expect(calls).toEqual([`rpc accept_invitation ${TOKEN}`, 'updateUser {"invitation":null}']);
  });

  it('sends them to the invitation page, which says why, when it cannot be accepted', async () => {
    const { calls, client } = fakeClient(null);
    expect(await landingAfterConfirmation(client, userWith({ invitation: TOKEN }), '/w')).toBe(
      `/invite/${TOKEN}`,
    );
    expect(calls).toContain('updateUser {"invitation":null}');
  });

  it('leaves an ordinary sign-in alone, and never follows what is not a token', async () => {
    for (const metadata of [{}, { invitation: '//evil.example' }, { invitation: `${TOKEN}/../../x` }]) {
      const { calls, client } = fakeClient({ slug: 'crew' });
      expect(await landingAfterConfirmation(client, userWith(metadata), '/next')).toBe('/next');
      expect(calls).toEqual([]);
    }
    const { client } = fakeClient({ slug: 'crew' });
    expect(await landingAfterConfirmation(client, null, '/w')).toBe('/w');
  });
});
