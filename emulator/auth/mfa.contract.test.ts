// The unmodified @supabase/supabase-js against the local auth API's MFA (TOTP) endpoints: enrol,
// challenge, verify, unenrol, the assurance level in tokens and on the user, and the admin factor API.
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient, backend, confirmedUser, testIp } from '../../tests/support/backend.ts';
import { base32Decode, totp } from './totp.ts';

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: backend().dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

interface Claims {
  aal: string;
  amr: Array<{ method: string; timestamp: number }>;
  session_id: string;
}

function claimsOf(session: { access_token: string }): Claims {
  const payload = session.access_token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims;
}

/** The authenticator app: the code for now, or for the next 30-second step (inside GoTrue's skew). */
function codeFor(secret: string, stepsAhead = 0): string {
  const key = base32Decode(secret);
  if (!key) throw new Error('secret is not base32');
  return totp(key, Date.now() + stepsAhead * 30_000);
}

async function signIn(email: string, password: string, ip = testIp()) {
  const client = anonClient({ ip });
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error('no session');
  return { client, session: data.session };
}

async function signedIn(tag = 'mfa') {
  const user = await confirmedUser(tag);
  return { ...user, ...(await signIn(user.email, user.password)) };
}

async function enrol(client: SupabaseClient, friendlyName?: string) {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  if (error || !data) throw error ?? new Error('enroll returned nothing');
  return data;
}

/** A user with a verified TOTP factor, signed in at aal2 on `client`. */
async function withVerifiedFactor(tag = 'verified') {
  const user = await signedIn(tag);
  const factor = await enrol(user.client, 'Phone app');
  const code = codeFor(factor.totp.secret);
  const { data, error } = await user.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
  if (error || !data) throw error ?? new Error('verify returned nothing');
  return { ...user, factor, code, aal2: data };
}

async function sessionRow(id: string) {
  const { rows } = await db.query<{ aal: string; factor_id: string | null }>(
    'select aal, factor_id from auth.sessions where id = $1',
    [id],
  );
  return rows[0];
}

describe('enrolling a TOTP factor', () => {
  it('returns the secret, an otpauth URI and a QR code as an SVG data URI, and an unverified factor on the user', async () => {
    const { client, email } = await signedIn('enrol');
    const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(error).toBeNull();
    expect(data?.type).toBe('totp');
    expect(data?.friendly_name).toBe('Laptop');
    expect(data?.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data?.totp.uri).toBe(
      `otpauth://totp/localhost:3000:${email}?algorithm=SHA1&digits=6&issuer=localhost:3000&period=30&secret=${data?.totp.secret}`,
    );
    expect(data?.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<\?xml version="1.0"\?>\n<svg /);
    expect(data?.totp.qr_code).toContain('</svg>');

    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.all).toEqual([
      expect.objectContaining({
        id: data?.id,
        factor_type: 'totp',
        status: 'unverified',
        friendly_name: 'Laptop',
      }),
    ]);
    expect(factors.data?.totp).toEqual([]);
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });

  it('puts the requested issuer in the URI', async () => {
    const { client } = await signedIn('issuer');
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp', issuer: 'Crew board' });
    expect(data?.totp.uri).toMatch(/^otpauth:\/\/totp\/Crew%20board:.*&issuer=Crew%20board&/);
  });

  it('refuses a second factor with the same friendly name, including two without one', async () => {
    const { client } = await signedIn('names');
    await enrol(client, 'Phone');
    const same = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(same.error?.code).toBe('mfa_factor_name_conflict');
    expect(same.error?.status).toBe(422);
    await enrol(client);
    const unnamed = await client.auth.mfa.enroll({ factorType: 'totp' });
    expect(unnamed.error?.code).toBe('mfa_factor_name_conflict');
  });

  it('allows at most 10 factors per user', async () => {
    const { client } = await signedIn('many');
    for (let i = 1; i <= 10; i++) await enrol(client, `Factor ${i}`);
    const { error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Factor 11' });
    expect(error?.code).toBe('too_many_enrolled_mfa_factors');
    expect(error?.status).toBe(422);
  });

  it('answers phone factors as disabled, and needs aal2 for a second factor once one is verified', async () => {
    const { client, email, password } = await withVerifiedFactor('second');
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
    expect(phone.error?.code).toBe('mfa_phone_enroll_not_enabled');

    const atAal2 = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Backup' });
    expect(atAal2.error).toBeNull();
    const fresh = await signIn(email, password);
    const atAal1 = await fresh.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Another' });
    expect(atAal1.error?.code).toBe('insufficient_aal');
    expect(atAal1.error?.status).toBe(403);
  });
});

describe('challenge and verify', () => {
  it('verifies the factor and upgrades the same session to aal2', async () => {
    const { client, session } = await signedIn('verify');
    const factor = await enrol(client, 'Phone app');
    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data?.type).toBe('totp');
    const now = Math.floor(Date.now() / 1000);
    expect(challenge.data?.expires_at).toBeGreaterThanOrEqual(now + 298);
    expect(challenge.data?.expires_at).toBeLessThanOrEqual(now + 301);

    const { data, error } = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data?.id ?? '',
      code: codeFor(factor.totp.secret),
    });
    expect(error).toBeNull();
    if (!data) throw new Error('no session');
    const claims = claimsOf(data);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr.map((a) => a.method)).toEqual(expect.arrayContaining(['totp', 'password']));
    expect(claims.session_id).toBe(claimsOf(session).session_id);
    expect(data.refresh_token).not.toBe(session.refresh_token);
    expect(data.user.factors).toEqual([expect.objectContaining({ id: factor.id, status: 'verified' })]);
    expect(await sessionRow(claims.session_id)).toEqual({ aal: 'aal2', factor_id: factor.id });
    const amr = await db.query(
      'select 1 from auth.mfa_amr_claims where session_id = $1 and authentication_method = $2',
      [claims.session_id, 'totp'],
    );
    expect(amr.rowCount).toBe(1);

    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const listed = await client.auth.mfa.listFactors();
    expect(listed.data?.totp.map((f) => f.id)).toEqual([factor.id]);
  });

  it('gives a new sign-in aal1 with nextLevel aal2, and challengeAndVerify raises it', async () => {
    const { email, password, factor } = await withVerifiedFactor('signin');
    const { client } = await signIn(email, password);
    const before = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    // The code of the next step: the current one was spent enrolling (codes are single-use).
    const { error } = await client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: codeFor(factor.totp.secret, 1),
    });
    expect(error).toBeNull();
    const after = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(after.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const methods = after.data?.currentAuthenticationMethods ?? [];
    expect(methods).toContainEqual(expect.objectContaining({ method: 'totp' }));
  });

  it('keeps aal2 when the session is refreshed', async () => {
    const { client } = await withVerifiedFactor('refresh');
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    if (!data.session) throw new Error('no session');
    expect(claimsOf(data.session).aal).toBe('aal2');
    expect(claimsOf(data.session).amr.map((a) => a.method)).toContain('totp');
  });

  it('refuses a wrong code with mfa_verification_failed and keeps the challenge open', async () => {
    const { client } = await signedIn('wrong');
    const factor = await enrol(client);
    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    const challengeId = challenge.data?.id ?? '';
    const right = codeFor(factor.totp.secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const failed = await client.auth.mfa.verify({ factorId: factor.id, challengeId, code: wrong });
    expect(failed.error?.code).toBe('mfa_verification_failed');
    expect(failed.error?.status).toBe(422);
    expect(failed.error?.message).toBe('Invalid TOTP code entered');
    const retried = await client.auth.mfa.verify({ factorId: factor.id, challengeId, code: right });
    expect(retried.error).toBeNull();
  });

  it('accepts a code again on a new challenge, as GoTrue does, but never a challenge twice', async () => {
    const { client, factor, code, email, password } = await withVerifiedFactor('replay');
    // GoTrue remembers no used code (internal/api/mfa.go, verifyTOTPFactor): within its time the
    // same code opens another challenge, here of the same session and of a new sign-in.
    const again = await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    expect(again.error).toBeNull();
    const elsewhere = await signIn(email, password);
    const sameCode = await elsewhere.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    expect(sameCode.error).toBeNull();
    expect(sameCode.data?.access_token).toBeTruthy();

    const other = await signIn(email, password);
    const challenge = await other.client.auth.mfa.challenge({ factorId: factor.id });
    const challengeId = challenge.data?.id ?? '';
    const next = codeFor(factor.totp.secret, 1);
    expect(
      (await other.client.auth.mfa.verify({ factorId: factor.id, challengeId, code: next })).error,
    ).toBeNull();
    const twice = await other.client.auth.mfa.verify({ factorId: factor.id, challengeId, code: next });
    expect(twice.error?.code).toBe('mfa_ip_address_mismatch');
  });

  it('refuses an expired challenge with mfa_challenge_expired and forgets it', async () => {
    const { client } = await signedIn('expired');
    const factor = await enrol(client);
    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    const challengeId = challenge.data?.id ?? '';
    await db.query(
      `update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`,
      [challengeId],
    );
    const code = codeFor(factor.totp.secret);
    const expired = await client.auth.mfa.verify({ factorId: factor.id, challengeId, code });
    expect(expired.error?.code).toBe('mfa_challenge_expired');
    expect(expired.error?.status).toBe(422);
    const gone = await client.auth.mfa.verify({ factorId: factor.id, challengeId, code });
    expect(gone.error?.code).toBe('mfa_factor_not_found');
  });

  it('ties a challenge to the address that made it', async () => {
    const { client, session } = await signedIn('ip');
    const factor = await enrol(client);
    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    const res = await fetch(`${backend().apiUrl}/auth/v1/factors/${factor.id}/verify`, {
      method: 'POST',
      headers: {
        apikey: backend().anonKey,
        Authorization: `Bearer ${session.access_token}`,
        'Content-Type': 'application/json',
        'X-Supabase-Api-Version': '2024-01-01',
        'X-Forwarded-For': testIp(),
      },
      body: JSON.stringify({ challenge_id: challenge.data?.id, code: codeFor(factor.totp.secret) }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'mfa_ip_address_mismatch' });
  });

  it("answers another user's factor as not found", async () => {
    const owner = await signedIn('owner');
    const factor = await enrol(owner.client);
    const stranger = await signedIn('stranger');
    const { error } = await stranger.client.auth.mfa.challenge({ factorId: factor.id });
    expect(error?.code).toBe('mfa_factor_not_found');
    expect(error?.status).toBe(404);
  });

  it("signs out the same user's other aal1 sessions once a session reaches aal2", async () => {
    const user = await signedIn('others');
    const other = await signIn(user.email, user.password);
    const factor = await enrol(user.client);
    const verified = await user.client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: codeFor(factor.totp.secret),
    });
    expect(verified.error).toBeNull();
    expect(await sessionRow(claimsOf(other.session).session_id)).toBeUndefined();
    // The server says session_not_found; auth-js turns that into AuthSessionMissingError and drops it.
    const { error } = await other.client.auth.getUser();
    expect(error?.name).toBe('AuthSessionMissingError');
  });

  it('rate-limits challenges per client address: a burst of 30, then 429', async () => {
    const { client } = await signedIn('limit');
    const factor = await enrol(client);
    for (let i = 0; i < 30; i++) {
      const { error } = await client.auth.mfa.challenge({ factorId: factor.id });
      expect(error).toBeNull();
    }
    const { error } = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(error?.code).toBe('over_request_rate_limit');
    expect(error?.status).toBe(429);
  });
});

describe('unenrolling', () => {
  it('removes an unverified factor at aal1', async () => {
    const { client } = await signedIn('unenrol');
    const factor = await enrol(client);
    const { data, error } = await client.auth.mfa.unenroll({ factorId: factor.id });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factor.id });
    expect((await client.auth.mfa.listFactors()).data?.all).toEqual([]);
  });

  it('needs aal2 for a verified factor, then downgrades the session to aal1', async () => {
    const { client, email, password, factor, aal2 } = await withVerifiedFactor('downgrade');
    const fresh = await signIn(email, password);
    const refused = await fresh.client.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error?.code).toBe('insufficient_aal');
    expect(refused.error?.status).toBe(422);

    const { error } = await client.auth.mfa.unenroll({ factorId: factor.id });
    expect(error).toBeNull();
    const sessionId = claimsOf(aal2).session_id;
    expect(await sessionRow(sessionId)).toEqual({ aal: 'aal1', factor_id: null });
    const refreshed = await client.auth.refreshSession();
    if (!refreshed.data.session) throw refreshed.error ?? new Error('no session');
    expect(claimsOf(refreshed.data.session).aal).toBe('aal1');
    expect(claimsOf(refreshed.data.session).amr.map((a) => a.method)).not.toContain('totp');
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });
});

describe('a verified factor and the rest of the account', () => {
  it('needs aal2 to change the password', async () => {
    const { email, password } = await withVerifiedFactor('password');
    const { client } = await signIn(email, password);
    const { error } = await client.auth.updateUser({ password: 'a-new-password-1' });
    expect(error?.code).toBe('insufficient_aal');
  });
});

describe('admin factor API', () => {
  it("lists and deletes a user's factors, downgrading the sessions the factor raised", async () => {
    const { id, client, factor, aal2 } = await withVerifiedFactor('admin');
    const admin = adminClient();
    const listed = await admin.auth.admin.mfa.listFactors({ userId: id });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({
        id: factor.id,
        factor_type: 'totp',
        status: 'verified',
        friendly_name: 'Phone app',
      }),
    ]);

    const deleted = await admin.auth.admin.mfa.deleteFactor({ userId: id, id: factor.id });
    expect(deleted.error).toBeNull();
    // auth-js 2.119 hands back the whole {data, error} of its request here.
    expect(deleted.data).toMatchObject({ data: { id: factor.id } });
    expect(await sessionRow(claimsOf(aal2).session_id)).toEqual({
      aal: 'aal1',
      factor_id: null,
    });
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.data.session && claimsOf(refreshed.data.session).aal).toBe('aal1');

    const again = await admin.auth.admin.mfa.deleteFactor({ userId: id, id: factor.id });
    expect(again.error?.code).toBe('mfa_factor_not_found');
    expect(again.error?.status).toBe(404);
    expect((await admin.auth.admin.mfa.listFactors({ userId: id })).data?.factors).toEqual([]);
  });
});
