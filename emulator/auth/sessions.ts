// Sessions, access tokens and refresh-token rotation (supabase/auth internal/tokens/service.go,
// internal/models/refresh_token.go, sessions.go, amr.go).
import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors } from 'jose';
import type pg from 'pg';
import type { SigningKeys } from '../keys.ts';
import { verifyJwt } from '../keys.ts';
import { CommitThenThrow, inTransaction } from '../lib/transaction.ts';
import { secureAlphanumeric } from './crypto.ts';
import { AuthError, OAuthError, badRequest, forbidden } from './errors.ts';
import type { Queryable, UserRow } from './users.ts';
import { audit, findUserById, fullUserJson, isBanned, isUuid } from './users.ts';

export interface TokenSettings {
  keys: SigningKeys;
  issuer: string;
  jwtExpiry: number;
  reuseInterval: number;
  rotationEnabled: boolean;
}

export interface GrantContext {
  ip: string;
  userAgent: string;
}

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  aal: string | null;
  not_after: Date | null;
  factor_id: string | null;
}

export interface AmrEntry {
  method: string;
  timestamp: number;
}

const AAL2_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

export async function addAmrClaim(db: Queryable, sessionId: string, method: string): Promise<void> {
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, now(), now(), $2)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, method],
  );
}

export async function sessionAssurance(
  db: Queryable,
  sessionId: string,
): Promise<{ aal: string; amr: AmrEntry[] }> {
  const { rows } = await db.query<{ authentication_method: string; updated_at: Date }>(
    'select authentication_method, updated_at from auth.mfa_amr_claims where session_id = $1',
    [sessionId],
  );
  const amr = rows
    .map((r) => ({ method: r.authentication_method, timestamp: Math.floor(r.updated_at.getTime() / 1000) }))
    .sort((a, b) => b.timestamp - a.timestamp);
  const aal = rows.some((r) => AAL2_METHODS.has(r.authentication_method)) ? 'aal2' : 'aal1';
  return { aal, amr };
}

export async function signAccessToken(
  settings: TokenSettings,
  user: UserRow,
  sessionId: string,
  assurance: { aal: string; amr: AmrEntry[] },
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const expiresAt = iat + settings.jwtExpiry;
  const token = await new SignJWT({
    aud: user.aud ?? 'authenticated',
    exp: expiresAt,
    iat,
    iss: settings.issuer,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? 'authenticated',
    aal: assurance.aal,
    amr: assurance.amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  })
    .setProtectedHeader({ alg: settings.keys.alg, kid: settings.keys.kid, typ: 'JWT' })
    .sign(settings.keys.privateKey);
  return { token, expiresAt };
}

async function tokenResponse(
  db: Queryable,
  settings: TokenSettings,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<Record<string, unknown>> {
  const assurance = await sessionAssurance(db, sessionId);
  const { token, expiresAt } = await signAccessToken(settings, user, sessionId, assurance);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: expiresAt - Math.floor(Date.now() / 1000),
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await fullUserJson(db, user),
  };
}

/** Starts a new session for a user who just proved who they are with `method`. */
export async function issueSession(
  db: Queryable,
  settings: TokenSettings,
  user: UserRow,
  method: string,
  grant: GrantContext,
): Promise<Record<string, unknown>> {
  const sessionId = randomUUID();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, refreshed_at)
     values ($1, $2, now(), now(), 'aal1', $3, $4::inet, now())`,
    [sessionId, user.id, grant.userAgent, normaliseIp(grant.ip)],
  );
  const refreshToken = secureAlphanumeric(12);
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), null, $3)`,
    [refreshToken, user.id, sessionId],
  );
  await addAmrClaim(db, sessionId, method);
  const { rows } = await db.query<UserRow>(
    'update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning *',
    [user.id],
  );
  await audit(db, user, 'login', grant.ip, { provider: 'email' }, 'account');
  return tokenResponse(db, settings, rows[0] ?? user, sessionId, refreshToken);
}

/**
 * MFA verify: the SAME session gains the factor's AMR claim and aal2 (GoTrue's updateMFASessionAndClaims).
 * Its refresh token is swapped for a child, so the aal1 token the client held is no longer the active
 * one; then the user's sessions below aal2 are signed out (InvalidateSessionsWithAALLessThan).
 */
export async function elevateSession(
  db: Queryable,
  settings: TokenSettings,
  user: UserRow,
  sessionId: string,
  factorId: string,
  method: string,
  ip: string,
): Promise<Record<string, unknown>> {
  await addAmrClaim(db, sessionId, method);
  const { rows } = await db.query<{ id: string; token: string }>(
    `select id, token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
    [sessionId],
  );
  const current = rows[0];
  if (current) {
    await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [
      current.id,
    ]);
    await audit(db, user, 'token_revoked', ip, {}, 'token');
  }
  const refreshToken = secureAlphanumeric(12);
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [refreshToken, user.id, current?.token ?? null, sessionId],
  );
  const { aal } = await sessionAssurance(db, sessionId);
  await db.query('update auth.sessions set aal = $2, factor_id = $3, updated_at = now() where id = $1', [
    sessionId,
    aal,
    factorId,
  ]);
  await db.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [user.id]);
  return tokenResponse(db, settings, user, sessionId, refreshToken);
}

/**
 * After a factor is removed, the sessions it raised to aal2 drop back to aal1 and lose its AMR claim
 * (GoTrue's Factor.DowngradeSessionsToAAL1); their next access token says aal1.
 */
export async function downgradeSessionsOfFactor(
  db: Queryable,
  factor: { id: string; user_id: string; factor_type: string },
): Promise<void> {
  const method = AMR_METHOD_OF_FACTOR[factor.factor_type];
  if (method) {
    await db.query(
      `delete from auth.mfa_amr_claims
        where authentication_method = $2
          and session_id in (select id from auth.sessions where user_id = $1 and factor_id = $3)`,
      [factor.user_id, method, factor.id],
    );
  }
  await db.query(
    `update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and factor_id = $2`,
    [factor.user_id, factor.id],
  );
}

export const AMR_METHOD_OF_FACTOR: Record<string, string> = {
  totp: 'totp',
  phone: 'mfa/phone',
  webauthn: 'mfa/webauthn',
};

/** The address as the inet columns store it, or null when it is not one. */
export function normaliseIp(ip: string): string | null {
  const v4 = ip.replace(/^::ffff:/, '');
  return /^[\d.]+$/.test(v4) || /^[0-9a-f:]+$/i.test(v4) ? v4 : null;
}

interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: Date;
  parent: string | null;
  session_id: string | null;
}

/**
 * grant_type=refresh_token. Every use rotates the token; a revoked token is still honoured when it is
 * the parent of the session's active token (a client that lost the last response) or within the reuse
 * interval of its rotation (parallel SSR requests); after that the session's tokens are all revoked.
 */
export async function refreshGrant(
  pool: pg.Pool,
  settings: TokenSettings,
  refreshToken: string,
  grant: GrantContext,
): Promise<Record<string, unknown>> {
  if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token required');
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<RefreshTokenRow>(
      'select id, token, user_id, revoked, updated_at, parent, session_id from auth.refresh_tokens where token = $1 for update',
      [refreshToken],
    );
    const token = rows[0];
    if (!token) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    const user = await findUserById(client, token.user_id);
    if (!user) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    if (isBanned(user)) throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    const session = token.session_id ? await findSession(client, token.session_id) : null;
    if (!session) {
      await client.query('delete from auth.refresh_tokens where id = $1', [token.id]);
      throw new CommitThenThrow(
        badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found'),
      );
    }
    if (session.not_after && session.not_after.getTime() < Date.now()) {
      throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
    }

    let issued: string | undefined;
    if (token.revoked) {
      const active = await client.query<{ token: string; parent: string | null }>(
        'select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1',
        [session.id],
      );
      const current = active.rows[0];
      if (current && current.parent === token.token) {
        issued = current.token;
      } else if (!current && settings.rotationEnabled) {
        // No token of the session is active: its family was revoked when a reuse was detected. The
        // reuse interval is for a client that lost the answer to a refresh that did happen, never a
        // way back into a session revoked as stolen: after a detected reuse, no token of that session
        // may refresh (GoTrue's RevokeTokenFamily also stamps updated_at, which would otherwise
        // reopen the window for the newest token).
        await audit(client, user, 'token_revoked', grant.ip, { reason: 'refresh token reused' }, 'token');
        throw new CommitThenThrow(
          badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
        );
      } else if (Date.now() > token.updated_at.getTime() + settings.reuseInterval * 1000) {
        if (settings.rotationEnabled) {
          // GoTrue's RevokeTokenFamily (internal/models/refresh_token.go) sets updated_at = now() as
          // well since supabase/auth#1167, so the session's newest token stays usable for one more
          // reuse interval after a detected reuse, there as here.
          await client.query(
            'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
            [session.id],
          );
        }
        await audit(client, user, 'token_revoked', grant.ip, { reason: 'refresh token reused' }, 'token');
        throw new CommitThenThrow(
          badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
        );
      }
    }
    if (!issued) {
      await client.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [
        token.id,
      ]);
      issued = secureAlphanumeric(12);
      await client.query(
        `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
         values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
        [issued, user.id, token.token, session.id],
      );
      await audit(client, user, 'token_refreshed', grant.ip, {}, 'token');
    }
    await client.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [
      session.id,
    ]);
    return tokenResponse(client, settings, user, session.id, issued);
  });
}

export async function findSession(db: Queryable, id: string): Promise<SessionRow | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<SessionRow>(
    'select id, user_id, created_at, aal, not_after, factor_id from auth.sessions where id = $1',
    [id],
  );
  return rows[0] ?? null;
}

export async function logoutSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('delete from auth.sessions where id = $1', [sessionId]);
}

export async function logoutAllExcept(db: Queryable, userId: string, keepSessionId: string): Promise<void> {
  await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, keepSessionId]);
}

export async function logoutEverywhere(db: Queryable, userId: string): Promise<void> {
  await db.query('delete from auth.sessions where user_id = $1', [userId]);
}

export interface Caller {
  user: UserRow;
  session: SessionRow | null;
  claims: Record<string, unknown>;
}

/** What GoTrue's requireAuthentication middleware establishes from the Bearer token. */
export async function authenticate(
  db: Queryable,
  keys: SigningKeys,
  bearer: string | undefined,
): Promise<Caller> {
  if (!bearer) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  let claims: Record<string, unknown>;
  try {
    claims = await verifyJwt(keys, bearer);
  } catch (error) {
    const reason =
      error instanceof joseErrors.JWTExpired
        ? 'token has invalid claims: token is expired'
        : error instanceof joseErrors.JOSEError
          ? 'signature is invalid'
          : 'token is malformed';
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(db, sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  let session: SessionRow | null = null;
  if (typeof claims.session_id === 'string' && claims.session_id !== '') {
    if (!isUuid(claims.session_id))
      throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    session = await findSession(db, claims.session_id);
    if (!session) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  return { user, session, claims };
}
