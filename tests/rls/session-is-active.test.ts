// session_is_active(): the app's per-request check that a token's session has not been ended elsewhere.
import { describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { person, signedInClient } from '../support/scene.ts';

describe('session_is_active', () => {
  it('is true for a live session and false once it is signed out elsewhere', async () => {
    const user = await person('session');
    const here = user.client;
    const elsewhere = await signedInClient(user.email, user.password);
    expect((await here.rpc('session_is_active')).data).toBe(true);
    await elsewhere.auth.signOut({ scope: 'global' });
    const after = await here.rpc('session_is_active');
    expect(after.error).toBeNull();
    expect(after.data).toBe(false);
  });

  it('is not callable without signing in', async () => {
    const { error } = await anonClient().rpc('session_is_active');
    expect(error?.code).toBe('42501');
  });
});
