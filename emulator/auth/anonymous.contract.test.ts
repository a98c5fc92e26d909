// Anonymous sign-ins through the unmodified supabase-js, as GoTrue has them
// (supabase/auth internal/api/anonymous.go, the /signup route in api.go, user.go and verify.go's
// emailChangeVerify): off unless `[auth] enable_anonymous_sign_ins` is on; then a user without an
// email, identity or password, `is_anonymous` in the user and the JWT, the `anonymous_users` limit,
// and linking an email by updateUser({ email }), which makes the user permanent.
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, backend, testIp, uniqueEmail } from '../../tests/support/backend.ts';
import { type Backend, startBackend } from '../backend.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
let enabled: Backend;

// A backend of its own with anonymous sign-ins on (config.toml leaves them off, as the app does not
// use them), on a data directory beside the shared test backend's, kept between runs.
beforeAll(async () => {
  enabled = await startBackend({
    projectRoot,
    dataDir: path.resolve(projectRoot, `${process.env.TEST_DATA_DIR ?? '.data/test'}-anonymous`),
    apiPort: 0,
    dbPort: 0,
    mailPort: 0,
    smtpPort: 0,
    fallbackToFreePorts: true,
    env: {
      AUTH_ENABLE_ANONYMOUS_SIGN_INS: 'true',
      AUTH_RATE_LIMIT_ANONYMOUS_USERS: '3',
      // Clients are told apart by X-Forwarded-For, as behind a proxy that sets it.
      AUTH_RATE_LIMIT_HEADER: 'X-Forwarded-For',
      AUTH_RATE_LIMIT_EMAIL_SENT: '1000000',
    },
  });
}, 120_000);

afterAll(async () => {
  await enabled?.stop();
});

function client(ip = testIp()): SupabaseClient {
  return createClient(enabled.apiUrl, enabled.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'X-Forwarded-For': ip } },
  });
}

/** The token hash of the newest emailed link to `address` (the email_change template has no code). */
async function latestTokenHashTo(address: string): Promise<string> {
  const search = await fetch(
    `${enabled.mailUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`,
  );
  const { messages } = (await search.json()) as { messages: Array<{ ID: string }> };
  const first = messages[0];
  if (!first) throw new Error(`no mail to ${address}`);
  const message = (await (await fetch(`${enabled.mailUrl}/api/v1/message/${first.ID}`)).json()) as {
    HTML: string;
  };
  // The project's template links to the app's /auth/confirm?token_hash=…, as Supabase's SSR guide does.
  const hash = /token_hash=([0-9a-z_]+)/.exec(message.HTML)?.[1];
  if (!hash) throw new Error(`no verification link in the mail to ${address}`);
  return hash;
}

describe('anonymous sign-ins', () => {
  it('are refused while enable_anonymous_sign_ins is off, and settings say so', async () => {
    const { data, error } = await anonClient().auth.signInAnonymously();
    expect(data.session).toBeNull();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('anonymous_provider_disabled');
    const { apiUrl, anonKey } = backend();
    const settings = (await (
      await fetch(`${apiUrl}/auth/v1/settings`, { headers: { apikey: anonKey } })
    ).json()) as {
      external: Record<string, boolean>;
    };
    expect(settings.external.anonymous_users).toBe(false);
  });

  it('make a user with no email, identity or provider, anonymous in the user and in the JWT', async () => {
    const settings = (await (
      await fetch(`${enabled.apiUrl}/auth/v1/settings`, { headers: { apikey: enabled.anonKey } })
    ).json()) as { external: Record<string, boolean> };
    expect(settings.external.anonymous_users).toBe(true);

    const c = client();
    const { data, error } = await c.auth.signInAnonymously({ options: { data: { colour: 'teal' } } });
    expect(error).toBeNull();
    const user = data.user;
    expect(user?.is_anonymous).toBe(true);
    expect(user?.email).toBe('');
    expect(user?.identities).toEqual([]);
    expect(user?.app_metadata).toEqual({});
    expect(user?.user_metadata).toEqual({ colour: 'teal' });
    expect(user?.role).toBe('authenticated');

    const claims = await c.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims).toMatchObject({ is_anonymous: true, role: 'authenticated', sub: user?.id });
    expect(claims.data?.claims.amr).toEqual([{ method: 'anonymous', timestamp: expect.any(Number) }]);

    // The session refreshes like any other, and the user can read itself.
    const refreshed = await c.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect((await c.auth.getUser()).data.user?.is_anonymous).toBe(true);
  });

  it('are limited per address by anonymous_users per hour', async () => {
    const ip = testIp();
    for (let i = 0; i < 3; i += 1) {
      expect((await client(ip).auth.signInAnonymously()).error).toBeNull();
    }
    const fourth = await client(ip).auth.signInAnonymously();
    expect(fourth.error?.status).toBe(429);
    expect(fourth.error?.code).toBe('over_request_rate_limit');
    expect((await client().auth.signInAnonymously()).error).toBeNull();
  });

  it('keep an anonymous user from setting a password alone or enrolling MFA', async () => {
    const c = client();
    await c.auth.signInAnonymously();
    const password = await c.auth.updateUser({ password: 'a-good-password' });
    expect(password.error?.status).toBe(422);
    expect(password.error?.code).toBe('validation_failed');
    const factor = await c.auth.mfa.enroll({ factorType: 'totp' });
    expect(factor.error?.status).toBe(403);
    expect(factor.error?.code).toBe('no_authorization');
  });

  it('turn into a permanent user by linking an email: updateUser({ email }) and the emailed link', async () => {
    const c = client();
    const { data: signedIn } = await c.auth.signInAnonymously();
    const id = signedIn.user?.id;
    const email = uniqueEmail('linked');
    const update = await c.auth.updateUser({ email, password: 'a-linked-password' });
    expect(update.error).toBeNull();
    // Until the new address is confirmed the user stays anonymous, with the change pending.
    expect(update.data.user).toMatchObject({ id, is_anonymous: true, email: '', new_email: email });

    const verified = await c.auth.verifyOtp({
      token_hash: await latestTokenHashTo(email),
      type: 'email_change',
    });
    expect(verified.error).toBeNull();
    const user = verified.data.user;
    expect(user).toMatchObject({
      id,
      email,
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(user?.email_confirmed_at).toBeTruthy();
    expect(user?.identities).toHaveLength(1);
    expect(user?.identities?.[0]).toMatchObject({
      provider: 'email',
      identity_data: { email, email_verified: true },
    });
    const claims = await c.auth.getClaims();
    expect(claims.data?.claims).toMatchObject({ is_anonymous: false, email, sub: id });

    // The password given with the email signs in now.
    const again = await client().auth.signInWithPassword({ email, password: 'a-linked-password' });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(id);
  });
});
