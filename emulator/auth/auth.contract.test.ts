// The unmodified @supabase/supabase-js against the local auth API: every endpoint, success and failure.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  adminClient,
  anonClient,
  backend,
  confirmedUser,
  latestCodeFor,
  latestLinksFor,
  latestMailTo,
  mailTo,
  pkceClient,
  testIp,
  uniqueEmail,
} from '../../tests/support/backend.ts';

async function signedIn(tag = 'signed') {
  const user = await confirmedUser(tag);
  const client = anonClient();
  const { data, error } = await client.auth.signInWithPassword({
    email: user.email,
    password: user.password,
  });
  expect(error).toBeNull();
  if (!data.session) throw new Error('no session');
  return { ...user, client, session: data.session };
}

describe('sign-up and confirmation', () => {
  it('signs up with confirmation required, returning a bare user and emailing a code and a link', async () => {
    const email = uniqueEmail('signup');
    const { data, error } = await anonClient().auth.signUp({ email, password: 'a-good-password' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    expect(data.user?.identities).toHaveLength(1);
    const mail = await latestMailTo(email);
    expect(mail.Subject).toBe('Confirm your Crewboard account');
    expect(await latestCodeFor(email)).toMatch(/^\d{6}$/);
  });

  it('refuses sign-in before confirmation with email_not_confirmed, then confirms with the emailed code', async () => {
    const email = uniqueEmail('confirm');
    const client = anonClient();
    await client.auth.signUp({ email, password: 'a-good-password' });
    const before = await client.auth.signInWithPassword({ email, password: 'a-good-password' });
    expect(before.error?.code).toBe('email_not_confirmed');
    expect(before.error?.status).toBe(400);

    const { data, error } = await client.auth.verifyOtp({
      email,
      token: await latestCodeFor(email),
      type: 'email',
    });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeTruthy();
    const after = await client.auth.signInWithPassword({ email, password: 'a-good-password' });
    expect(after.error).toBeNull();
  });

  it('confirms through the token hash of the email link (the @supabase/ssr /auth/confirm pattern)', async () => {
    const email = uniqueEmail('hash');
    await anonClient().auth.signUp({ email, password: 'a-good-password' });
    const link = (await latestLinksFor(email)).find((l) => l.includes('token_hash='));
    const hash = new URL(link ?? '').searchParams.get('token_hash') ?? '';
    const { data, error } = await anonClient().auth.verifyOtp({ token_hash: hash, type: 'signup' });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    const again = await anonClient().auth.verifyOtp({ token_hash: hash, type: 'signup' });
    expect(again.error?.code).toBe('otp_expired');
    expect(again.error?.status).toBe(403);
  });

  it('answers a sign-up for a confirmed address with a look-alike user and sends nothing', async () => {
    const { email } = await confirmedUser('taken');
    const before = (await mailTo(email)).length;
    const { data, error } = await anonClient().auth.signUp({ email, password: 'another-password' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.identities).toEqual([]);
    expect((await mailTo(email)).length).toBe(before);
  });

  it('rejects weak, overlong and malformed input with GoTrue codes', async () => {
    const client = anonClient();
    const weak = await client.auth.signUp({ email: uniqueEmail('weak'), password: 'short' });
    expect(weak.error?.code).toBe('weak_password');
    expect(weak.error?.status).toBe(422);
    expect((weak.error as { reasons?: string[] } | null)?.reasons).toEqual(['length']);
    const long = await client.auth.signUp({ email: uniqueEmail('long'), password: 'x'.repeat(73) });
    expect(long.error?.code).toBe('validation_failed');
    const bad = await client.auth.signUp({ email: 'not-an-email', password: 'a-good-password' });
    expect(bad.error?.code).toBe('validation_failed');
  });

  it('limits resending the confirmation to once a minute per address', async () => {
    const email = uniqueEmail('resend');
    const client = anonClient();
    await client.auth.signUp({ email, password: 'a-good-password' });
    const { error } = await client.auth.resend({ type: 'signup', email });
    expect(error?.code).toBe('over_email_send_rate_limit');
    expect(error?.status).toBe(429);
    expect(error?.message).toMatch(/only request this after \d+ seconds/);
    const unknown = await client.auth.resend({ type: 'signup', email: uniqueEmail('nobody') });
    expect(unknown.error).toBeNull();
  });
});

describe('password sign-in and sessions', () => {
  it('issues an ES256 session with GoTrue claims', async () => {
    const { session, email, id } = await signedIn();
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBeGreaterThan(3500);
    const [header, payload] = session.access_token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('ES256');
    expect(header.kid).toBeTruthy();
    expect(payload).toMatchObject({
      aud: 'authenticated',
      sub: id,
      email,
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      iss: `${backend().apiUrl}/auth/v1`,
    });
    expect(payload.amr[0].method).toBe('password');
    expect(typeof payload.session_id).toBe('string');
  });

  it('refuses a wrong password and an unknown address alike with invalid_credentials', async () => {
    const { email } = await confirmedUser('wrong');
    const wrong = await anonClient().auth.signInWithPassword({ email, password: 'not-the-password' });
    const unknown = await anonClient().auth.signInWithPassword({
      email: uniqueEmail('ghost'),
      password: 'whatever-123',
    });
    for (const { error } of [wrong, unknown]) {
      expect(error?.code).toBe('invalid_credentials');
      expect(error?.status).toBe(400);
      expect(error?.message).toBe('Invalid login credentials');
    }
  });

  it('verifies claims locally with getClaims(), without asking /user', async () => {
    const paths: string[] = [];
    const counting: typeof fetch = (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    };
    const user = await confirmedUser('claims');
    const client = anonClient({ fetch: counting });
    await client.auth.signInWithPassword({ email: user.email, password: user.password });
    paths.length = 0;
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims.sub).toBe(user.id);
    expect(paths).not.toContain('/auth/v1/user');
    expect(paths).toContain('/auth/v1/.well-known/jwks.json');
  });

  it('returns the same new session to ten parallel refreshes with one refresh token', async () => {
    const { session } = await signedIn('parallel');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        anonClient().auth.refreshSession({ refresh_token: session.refresh_token }),
      ),
    );
    for (const r of results) expect(r.error).toBeNull();
    const tokens = new Set(results.map((r) => r.data.session?.refresh_token));
    expect(tokens.size).toBe(1);
    expect(tokens.has(session.refresh_token)).toBe(false);
    const sessionIds = new Set(
      results.map(
        (r) =>
          JSON.parse(
            Buffer.from((r.data.session?.access_token ?? '').split('.')[1] ?? '', 'base64url').toString(),
          ).session_id,
      ),
    );
    expect(sessionIds.size).toBe(1);
  });

  it('revokes the whole token family when an old refresh token is reused after the 10 s window', async () => {
    const { session } = await signedIn('reuse');
    const first = await anonClient().auth.refreshSession({ refresh_token: session.refresh_token });
    const second = await anonClient().auth.refreshSession({
      refresh_token: first.data.session?.refresh_token ?? '',
    });
    expect(second.error).toBeNull();
    await new Promise((r) => setTimeout(r, 10_500));
    const reuse = await anonClient().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    // The newest token of the family was revoked too, and at once: no token of a session revoked for
    // reuse refreshes again, not even within the reuse interval.
    const newest = second.data.session?.refresh_token ?? '';
    const afterRevocation = await anonClient().auth.refreshSession({ refresh_token: newest });
    expect(afterRevocation.error?.code).toBe('refresh_token_already_used');
    expect(afterRevocation.data.session).toBeNull();
  }, 30_000);

  it('still answers a client that lost the answer to its refresh, within the reuse interval', async () => {
    const { session } = await signedIn('lost-answer');
    const first = await anonClient().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(first.error).toBeNull();
    // The same (now rotated) token again at once: the parent of the active token gets that token back.
    const again = await anonClient().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(again.error).toBeNull();
    expect(again.data.session?.refresh_token).toBe(first.data.session?.refresh_token);
  });

  it('reports an unknown refresh token', async () => {
    const { error } = await anonClient().auth.refreshSession({ refresh_token: 'nope-nope-nope' });
    expect(error?.code).toBe('refresh_token_not_found');
  });

  it('signs out locally, others and globally', async () => {
    const user = await confirmedUser('logout');
    const sessions = await Promise.all(
      [0, 1, 2].map(async () => {
        const c = anonClient();
        const { data } = await c.auth.signInWithPassword({ email: user.email, password: user.password });
        return { c, s: data.session };
      }),
    );
    const [a, b, c] = sessions;
    if (!a?.s || !b?.s || !c?.s) throw new Error('sign-in failed');
    expect((await a.c.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await anonClient().auth.refreshSession({ refresh_token: b.s.refresh_token })).error?.code).toBe(
      'refresh_token_not_found',
    );
    expect((await anonClient().auth.getUser(a.s.access_token)).error).toBeNull();
    expect((await a.c.auth.signOut({ scope: 'local' })).error).toBeNull();
    // auth-js turns session_not_found into AuthSessionMissingError; the wire answer is GoTrue's.
    const gone = await anonClient().auth.getUser(a.s.access_token);
    expect(gone.error?.name).toBe('AuthSessionMissingError');
    const raw = await fetch(`${backend().apiUrl}/auth/v1/user`, {
      headers: {
        apikey: backend().anonKey,
        Authorization: `Bearer ${a.s.access_token}`,
        'X-Supabase-Api-Version': '2024-01-01',
      },
    });
    expect(raw.status).toBe(403);
    expect((await raw.json()).code).toBe('session_not_found');
    expect((await c.c.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect((await anonClient().auth.refreshSession({ refresh_token: c.s.refresh_token })).error?.code).toBe(
      'refresh_token_not_found',
    );
  });
});

describe('one-time codes and links', () => {
  it('signs in with an emailed code, once only', async () => {
    const { email } = await confirmedUser('otp');
    const client = anonClient();
    expect(
      (await client.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error,
    ).toBeNull();
    const code = await latestCodeFor(email);
    const { data, error } = await client.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    const reused = await anonClient().auth.verifyOtp({ email, token: code, type: 'email' });
    expect(reused.error?.code).toBe('otp_expired');
  });

  it('does not create users when told not to', async () => {
    const { error } = await anonClient().auth.signInWithOtp({
      email: uniqueEmail('nouser'),
      options: { shouldCreateUser: false },
    });
    expect(error?.code).toBe('otp_disabled');
  });

  it('exchanges a PKCE email link (GET /verify → ?code=) once and only once', async () => {
    const { email } = await confirmedUser('pkce');
    const storage = new Map<string, string>();
    const client = pkceClient(storage);
    await client.auth.signInWithOtp({
      email,
      options: { emailRedirectTo: 'http://localhost:3000/auth/callback' },
    });
    const link = (await latestLinksFor(email)).find((l) => l.includes('/auth/v1/verify'));
    expect(link).toContain('token=pkce_');
    const res = await fetch(link ?? '', { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe('http://localhost:3000/auth/callback');
    const code = location.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    const verifierKeys = [...storage.keys()].filter((k) => k.endsWith('-code-verifier'));
    expect(verifierKeys.length).toBeGreaterThan(0);

    const first = await client.auth.exchangeCodeForSession(code);
    expect(first.error).toBeNull();
    expect(first.data.session?.user.email).toBe(email);
    const second = await anonClient().auth.exchangeCodeForSession(code);
    expect(second.error).toBeTruthy();
    const direct = await fetch(`${backend().apiUrl}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: {
        apikey: backend().anonKey,
        'content-type': 'application/json',
        'X-Supabase-Api-Version': '2024-01-01',
      },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(64) }),
    });
    expect(direct.status).toBe(404);
    expect((await direct.json()).code).toBe('flow_state_not_found');
  });

  it('refuses a PKCE exchange with the wrong verifier (bad_code_verifier)', async () => {
    const { email } = await confirmedUser('badverifier');
    const verifier = randomBytes(56).toString('hex');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const headers = {
      apikey: backend().anonKey,
      'content-type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
      'X-Forwarded-For': testIp(),
    };
    await fetch(
      `${backend().apiUrl}/auth/v1/otp?redirect_to=${encodeURIComponent('http://localhost:3000/auth/callback')}`,
      {
        method: 'POST',
        headers,
        body: JSON.stringify({
          email,
          create_user: false,
          code_challenge: challenge,
          code_challenge_method: 's256',
        }),
      },
    );
    const link = (await latestLinksFor(email)).find((l) => l.includes('/auth/v1/verify')) ?? '';
    const res = await fetch(link, { redirect: 'manual' });
    const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const wrong = await fetch(`${backend().apiUrl}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ auth_code: code, code_verifier: randomBytes(56).toString('hex') }),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).code).toBe('bad_code_verifier');
    const right = await fetch(`${backend().apiUrl}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
    });
    expect(right.status).toBe(200);
  });

  it('redirects an expired or used link with otp_expired in the fragment', async () => {
    const res = await fetch(
      `${backend().apiUrl}/auth/v1/verify?token=deadbeef&type=signup&redirect_to=${encodeURIComponent('http://localhost:3000/welcome')}`,
      {
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') ?? '');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('error_code')).toBe('otp_expired');
    expect(fragment.get('error')).toBe('access_denied');
  });

  it('sends a recovery email for a known address and answers the same for an unknown one', async () => {
    const { email } = await confirmedUser('recover');
    const known = await anonClient().auth.resetPasswordForEmail(email);
    const unknown = await anonClient().auth.resetPasswordForEmail(uniqueEmail('nobody'));
    expect(known).toEqual(unknown);
    expect(known.error).toBeNull();
    const code = await latestCodeFor(email);
    const { data, error } = await anonClient().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(error).toBeNull();
    expect(data.session).toBeTruthy();
  });
});

describe('the signed-in user', () => {
  it('reads and updates metadata, refusing the same password and weak ones', async () => {
    const { client, password } = await signedIn('update');
    const { data, error } = await client.auth.updateUser({ data: { display_name: 'Ada' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata.display_name).toBe('Ada');
    expect((await client.auth.getUser()).data.user?.user_metadata.display_name).toBe('Ada');
    const same = await client.auth.updateUser({ password });
    expect(same.error?.code).toBe('same_password');
    expect(same.error?.status).toBe(422);
    const weak = await client.auth.updateUser({ password: 'short' });
    expect(weak.error?.code).toBe('weak_password');
  });

  it('changes the password and signs other devices out', async () => {
    const user = await signedIn('newpass');
    const other = anonClient();
    const { data: otherSession } = await other.auth.signInWithPassword({
      email: user.email,
      password: user.password,
    });
    expect((await user.client.auth.updateUser({ password: 'brand-new-password' })).error).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email: user.email, password: 'brand-new-password' }))
        .error,
    ).toBeNull();
    const stale = await anonClient().auth.refreshSession({
      refresh_token: otherSession.session?.refresh_token ?? '',
    });
    expect(stale.error?.code).toBe('refresh_token_not_found');
  });

  it('changes the email after both the old and the new address confirm', async () => {
    const user = await signedIn('change');
    const newEmail = uniqueEmail('changed');
    const taken = await confirmedUser('occupied');
    expect((await user.client.auth.updateUser({ email: taken.email })).error?.code).toBe('email_exists');
    const { data, error } = await user.client.auth.updateUser({ email: newEmail });
    expect(error).toBeNull();
    expect(data.user?.new_email).toBe(newEmail);
    const toNew = new URL((await latestLinksFor(newEmail)).find((l) => l.includes('token_hash=')) ?? '');
    const toOld = new URL((await latestLinksFor(user.email)).find((l) => l.includes('token_hash=')) ?? '');
    const firstHalf = await anonClient().auth.verifyOtp({
      token_hash: toNew.searchParams.get('token_hash') ?? '',
      type: 'email_change',
    });
    expect(firstHalf.error).toBeNull();
    expect(firstHalf.data.session).toBeNull();
    // Half confirmed changes nothing yet: the account still answers to the old address.
    const between = await user.client.auth.getUser();
    expect(between.data.user?.email).toBe(user.email);
    expect(between.data.user?.new_email).toBe(newEmail);
    const secondHalf = await anonClient().auth.verifyOtp({
      token_hash: toOld.searchParams.get('token_hash') ?? '',
      type: 'email_change',
    });
    expect(secondHalf.error).toBeNull();
    expect(secondHalf.data.user?.email).toBe(newEmail);
  });

  it('changes the email with an emailed code, refusing a wrong one with otp_expired', async () => {
    // internal/api/verify.go, verifyUserAndToken: an email_change code is looked up by the address
    // it was sent to (FindUserForEmailChange) and checked against that address's token.
    const user = await confirmedUser('change-code');
    const newEmail = uniqueEmail('changed-code');
    const link = await adminClient().auth.admin.generateLink({
      type: 'email_change_new',
      email: user.email,
      newEmail,
    });
    expect(link.error).toBeNull();
    const wrong = await anonClient().auth.verifyOtp({
      email: newEmail,
      token: '000000',
      type: 'email_change',
    });
    expect(wrong.error?.code).toBe('otp_expired');
    expect(wrong.error?.status).toBe(403);
    const right = await anonClient().auth.verifyOtp({
      email: newEmail,
      token: link.data.properties?.email_otp ?? '',
      type: 'email_change',
    });
    expect(right.error).toBeNull();
    const again = await anonClient().auth.verifyOtp({
      email: newEmail,
      token: link.data.properties?.email_otp ?? '',
      type: 'email_change',
    });
    expect(again.error?.code).toBe('otp_expired');
  });

  it('sends a reauthentication code: the nonce a password change would be checked against', async () => {
    const { client, email, id } = await signedIn('reauth');
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMailTo(email);
    expect(mail.Subject).toBe('Your Crewboard confirmation code');
    const nonce = /\b(\d{6})\b/.exec(mail.Text)?.[1] ?? '';
    expect(nonce).toMatch(/^\d{6}$/);
    // GoTrue keeps sha224(email + nonce) and compares PUT /user's `nonce` with it when
    // secure_password_change is on (off in config.toml, so the comparison is read from the database).
    const db = new pg.Client({ connectionString: backend().dbUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ reauthentication_token: string }>(
        'select reauthentication_token from auth.users where id = $1',
        [id],
      );
      expect(rows[0]?.reauthentication_token).toBe(
        createHash('sha224')
          .update(email + nonce)
          .digest('hex'),
      );
    } finally {
      await db.end();
    }
  });

  it('answers missing, tampered and expired tokens like GoTrue', async () => {
    const { session } = await signedIn('tamper');
    const url = `${backend().apiUrl}/auth/v1/user`;
    const headers = { apikey: backend().anonKey, 'X-Supabase-Api-Version': '2024-01-01' };
    const none = await fetch(url, { headers });
    expect(none.status).toBe(401);
    expect((await none.json()).code).toBe('no_authorization');
    const [h, p] = session.access_token.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, role: 'service_role' })).toString('base64url')}.${session.access_token.split('.')[2]}`;
    const tampered = await fetch(url, { headers: { ...headers, Authorization: `Bearer ${forged}` } });
    expect(tampered.status).toBe(403);
    expect((await tampered.json()).code).toBe('bad_jwt');
    const garbage = await fetch(url, { headers: { ...headers, Authorization: 'Bearer not.a.jwt' } });
    expect(garbage.status).toBe(403);
    const legacy = await fetch(url, { headers: { apikey: backend().anonKey } });
    const legacyBody = await legacy.json();
    expect(legacyBody).toMatchObject({ code: 401, error_code: 'no_authorization' });
  });
});

describe('the rows GoTrue writes', () => {
  // GoTrue's User model holds every token column as a Go string (internal/models/user.go), so the
  // rows it inserts carry '' in each, never NULL; four of them have no column default
  // (migrations/00_init_auth_schema.up.sql), so the insert itself must say ''.
  it('leaves no token column NULL in a new user, made by sign-up, by the admin API or by invitation', async () => {
    const signedUp = uniqueEmail('rows');
    await anonClient().auth.signUp({ email: signedUp, password: 'a-good-password' });
    const made = await confirmedUser('rows');
    const invited = uniqueEmail('rows');
    await adminClient().auth.admin.inviteUserByEmail(invited);
    const db = new pg.Client({ connectionString: backend().dbUrl });
    await db.connect();
    try {
      const { rows } = await db.query<Record<string, string | null>>(
        `select email, confirmation_token, recovery_token, email_change_token_new, email_change,
                email_change_token_current, phone_change, phone_change_token, reauthentication_token
           from auth.users where email = any($1) order by email`,
        [[signedUp, made.email, invited]],
      );
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          if (column === 'email') continue;
          expect({ email: row.email, column, isString: typeof value === 'string' }).toEqual({
            email: row.email,
            column,
            isString: true,
          });
        }
        expect(row.recovery_token).toBe('');
        expect(row.email_change).toBe('');
      }
    } finally {
      await db.end();
    }
  });
});

describe('admin API', () => {
  it('is refused to users and anonymous callers', async () => {
    const { client } = await signedIn('notadmin');
    const asUser = await client.auth.admin.listUsers();
    expect(asUser.error?.code).toBe('not_admin');
    expect(asUser.error?.status).toBe(403);
    const asAnon = await anonClient().auth.admin.listUsers();
    expect(asAnon.error?.code).toBe('not_admin');
  });

  it('creates, reads, pages, updates and deletes users', async () => {
    const admin = adminClient();
    const email = uniqueEmail('admin');
    const created = await admin.auth.admin.createUser({
      email,
      password: 'a-good-password',
      email_confirm: true,
      user_metadata: { team: 'x' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user?.id ?? '';
    const duplicate = await admin.auth.admin.createUser({ email, password: 'a-good-password' });
    expect(duplicate.error?.code).toBe('email_exists');
    expect((await admin.auth.admin.getUserById(id)).data.user?.email).toBe(email);
    const page = await admin.auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(page.data.users).toHaveLength(2);
    if (!('total' in page.data)) throw new Error('listUsers returned no paging information');
    expect(page.data.total).toBeGreaterThanOrEqual(2);
    expect(page.data.nextPage).toBe(2);
    const updated = await admin.auth.admin.updateUserById(id, { user_metadata: { team: 'y' } });
    expect(updated.data.user?.user_metadata.team).toBe('y');
    expect((await admin.auth.admin.deleteUser(id)).error).toBeNull();
    const gone = await admin.auth.admin.getUserById(id);
    expect(gone.error?.status).toBe(404);
  });

  it('generates links without sending mail, and invites by email', async () => {
    const admin = adminClient();
    const { email } = await confirmedUser('link');
    const { data, error } = await admin.auth.admin.generateLink({ type: 'magiclink', email });
    expect(error).toBeNull();
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    expect(data.properties?.action_link).toContain('/auth/v1/verify?token=');
    expect((await mailTo(email)).length).toBe(0);
    const signedIn = await anonClient().auth.verifyOtp({
      token_hash: data.properties?.hashed_token ?? '',
      type: 'magiclink',
    });
    expect(signedIn.error).toBeNull();

    const invited = uniqueEmail('invitee');
    const inv = await admin.auth.admin.inviteUserByEmail(invited);
    expect(inv.error).toBeNull();
    expect(inv.data.user?.invited_at).toBeTruthy();
    expect((await latestMailTo(invited)).Subject).toBe('You have been invited to Crewboard');
  });
});

describe('settings, health and keys', () => {
  it('publishes settings, health and the JWKS without leaking the HMAC secret', async () => {
    const headers = { apikey: backend().anonKey };
    const settings = await (await fetch(`${backend().apiUrl}/auth/v1/settings`, { headers })).json();
    expect(settings.external.email).toBe(true);
    expect(settings.mailer_autoconfirm).toBe(false);
    const health = await (await fetch(`${backend().apiUrl}/auth/v1/health`, { headers })).json();
    expect(health.name).toBe('GoTrue');
    const jwks = await (await fetch(`${backend().apiUrl}/auth/v1/.well-known/jwks.json`)).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256' });
    expect(jwks.keys[0].d).toBeUndefined();
  });
});
