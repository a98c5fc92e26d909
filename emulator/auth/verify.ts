// GET and POST /verify: the emailed link or code checked and applied (supabase/auth internal/api/verify.go).
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  type AuthRequest,
  type AuthService,
  type Reply,
  grantContext,
  json,
  transaction,
} from './context.ts';
import { validateEmail } from './emails.ts';
import { enforceRateLimit } from './middleware.ts';
import { stringParam } from './params.ts';
import { redirectTarget } from './redirects.ts';
import { confirmUser } from './signup.ts';
import { tokenHash } from './crypto.ts';
import { AuthError, badRequest, linkExpired, otpExpired, unprocessable } from './errors.ts';
import { clearOneTimeTokens, findUserByOneTimeToken, type OneTimeTokenType } from './one-time-tokens.ts';
import { issueSession } from './sessions.ts';
import { type UserRow, audit, confirmEmailChange, findUserByEmail, findUserById, isBanned } from './users.ts';

type Flow = 'pkce' | 'implicit';

const VERIFY_TYPES = new Set(['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email']);

const TOKEN_TYPES_FOR: Record<string, OneTimeTokenType[]> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  magiclink: ['recovery_token'],
  recovery: ['recovery_token'],
  email_change: ['email_change_token_current', 'email_change_token_new'],
  email: ['confirmation_token', 'recovery_token'],
};

const AUTH_METHOD_FOR: Record<string, string> = {
  signup: 'email/signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
};

function otpIsValid(
  service: AuthService,
  actual: string,
  expected: string | null,
  sentAt: Date | null,
): boolean {
  if (!expected || !sentAt) return false;
  if (Date.now() > sentAt.getTime() + service.settings.email.otpExpiry * 1000) return false;
  return actual === expected || `pkce_${actual}` === expected;
}

function sentAtFor(user: UserRow, type: string): Date | null {
  if (type === 'signup' || type === 'invite') return user.confirmation_sent_at;
  if (type === 'magiclink' || type === 'recovery') return user.recovery_sent_at;
  if (type === 'email_change') return user.email_change_sent_at;
  return null;
}

/** Finds the user a token hash belongs to (links carry the hash, with `pkce_` under PKCE). */
async function verifyTokenHash(
  service: AuthService,
  db: pg.PoolClient,
  hash: string,
  type: string,
): Promise<{ user: UserRow; type: string }> {
  const found = await findUserByOneTimeToken(db, hash, TOKEN_TYPES_FOR[type] ?? []);
  if (!found) throw linkExpired();
  if (isBanned(found.user)) throw otpExpired('User is banned');
  let effective = type;
  if (type === 'email') effective = found.type === 'recovery_token' ? 'magiclink' : 'signup';
  const sentAt = sentAtFor(found.user, effective);
  if (!sentAt || Date.now() > sentAt.getTime() + service.settings.email.otpExpiry * 1000) throw linkExpired();
  return { user: found.user, type: effective };
}

/** Checks an emailed code typed by the user: hash(email + code) must match the stored token. */
async function verifyEmailAndCode(
  service: AuthService,
  db: pg.PoolClient,
  email: string,
  hash: string,
  type: string,
): Promise<{ user: UserRow; type: string }> {
  let user: UserRow | null;
  if (type === 'email_change') {
    const { rows } = await db.query<{ id: string }>(
      // $2 is compared with varchar columns and concatenated as text: typed once, so both agree.
      `select id from auth.users
        where (lower(email_change) = lower($1) and email_change_token_new in ($2::text, 'pkce_' || $2::text))
           or (lower(email) = lower($1) and email_change_token_current in ($2::text, 'pkce_' || $2::text))
        limit 1`,
      [email, hash],
    );
    user = rows[0] ? await findUserById(db, rows[0].id, true) : null;
  } else {
    user = await findUserByEmail(db, email, true);
  }
  if (!user) throw otpExpired();
  if (isBanned(user)) throw otpExpired('User is banned');
  let effective = type;
  let valid = false;
  if (type === 'email') {
    if (otpIsValid(service, hash, user.confirmation_token, user.confirmation_sent_at)) {
      valid = true;
      effective = 'signup';
    } else if (otpIsValid(service, hash, user.recovery_token, user.recovery_sent_at)) {
      valid = true;
      effective = 'magiclink';
    }
  } else if (type === 'signup' || type === 'invite') {
    valid = otpIsValid(service, hash, user.confirmation_token, user.confirmation_sent_at);
  } else if (type === 'magiclink' || type === 'recovery') {
    valid = otpIsValid(service, hash, user.recovery_token, user.recovery_sent_at);
  } else if (type === 'email_change') {
    valid =
      otpIsValid(service, hash, user.email_change_token_current, user.email_change_sent_at) ||
      otpIsValid(service, hash, user.email_change_token_new, user.email_change_sent_at);
  }
  if (!valid) throw otpExpired();
  return { user, type: effective };
}

type Verified = { user: UserRow } | { pendingSecondLink: true };

/** What following a link or entering a code does to the account. */
async function applyVerification(
  service: AuthService,
  db: pg.PoolClient,
  req: AuthRequest,
  user: UserRow,
  type: string,
  hash: string,
): Promise<Verified> {
  switch (type) {
    case 'signup':
    case 'invite': {
      if (!user.encrypted_password && user.invited_at) {
        await db.query(
          `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf', 10)) where id = $1`,
          [user.id, randomBytes(48).toString('base64url')],
        );
      }
      await audit(db, user, 'user_signedup', req.ip, { provider: 'email' });
      return { user: await confirmUser(db, user.id) };
    }
    case 'magiclink':
    case 'recovery': {
      await db.query(`update auth.users set recovery_token = '', updated_at = now() where id = $1`, [
        user.id,
      ]);
      await clearOneTimeTokens(db, user.id);
      if (!user.email_confirmed_at) {
        await audit(db, user, 'user_signedup', req.ip, { provider: 'email' });
        return { user: await confirmUser(db, user.id) };
      }
      await audit(db, user, 'login', req.ip, {}, 'account');
      const fresh = await findUserById(db, user.id);
      return { user: fresh ?? user };
    }
    case 'email_change': {
      if (
        service.settings.email.enableConfirmations &&
        service.settings.email.doubleConfirmChanges &&
        user.email_change_confirm_status === 0 &&
        user.email
      ) {
        // The first of two links: remember which one was followed and wait for the other.
        const matchesCurrent =
          hash === user.email_change_token_current || `pkce_${hash}` === user.email_change_token_current;
        await db.query(
          `update auth.users set email_change_confirm_status = 1,
              email_change_token_current = case when $2 then '' else email_change_token_current end,
              email_change_token_new = case when $2 then email_change_token_new else '' end
            where id = $1`,
          [user.id, matchesCurrent],
        );
        await clearOneTimeTokens(
          db,
          user.id,
          matchesCurrent ? 'email_change_token_current' : 'email_change_token_new',
        );
        return { pendingSecondLink: true };
      }
      await audit(db, user, 'user_modified', req.ip, {});
      const updated = await confirmEmailChange(db, user.id, user.email_change ?? '');
      await clearOneTimeTokens(db, user.id);
      return { user: updated };
    }
    default:
      throw badRequest('validation_failed', 'Unsupported verification type');
  }
}

const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

export async function verifyPost(service: AuthService, req: AuthRequest): Promise<Reply> {
  enforceRateLimit(service, req, 'verify');
  const body = req.body;
  const type = stringParam(body, 'type');
  const token = stringParam(body, 'token');
  let hash = stringParam(body, 'token_hash');
  const email = stringParam(body, 'email');
  const phone = stringParam(body, 'phone');
  if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type');
  if ((token === '' && hash === '') || (token !== '' && hash !== '')) {
    throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
  }
  let address = '';
  if (token !== '') {
    if (phone !== '' && email === '')
      throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    if (email === '' || phone !== '') {
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided on verify',
      );
    }
    try {
      address = validateEmail(email);
    } catch {
      throw unprocessable('validation_failed', 'Invalid email format');
    }
    hash = tokenHash(address, token);
  } else if (email !== '' || phone !== '' || stringParam(body, 'redirect_to') !== '') {
    throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
  }
  if (!VERIFY_TYPES.has(type)) throw badRequest('validation_failed', 'Unsupported verification type');

  const result = await transaction(service, async (db) => {
    const found =
      token !== ''
        ? await verifyEmailAndCode(service, db, address, hash, type)
        : await verifyTokenHash(service, db, hash, type);
    const verified = await applyVerification(service, db, req, found.user, found.type, hash);
    if ('pendingSecondLink' in verified) return null;
    return issueSession(db, service.tokens, verified.user, 'otp', grantContext(req));
  });
  if (!result) return json({ msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' });
  return json(result);
}

function fragment(params: Record<string, string>): string {
  return new URLSearchParams({ ...params, sb: '' }).toString();
}

const OAUTH_ERROR_FOR_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** GET /verify: the link in an email. Always answers 303 to the redirect target. */
export async function verifyGet(service: AuthService, req: AuthRequest): Promise<Reply> {
  const type = req.query.get('type') ?? '';
  const hash = req.query.get('token') ?? '';
  const redirectTo = redirectTarget(service, req);
  if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type');
  if (hash === '') throw badRequest('validation_failed', 'Verify requires a token or a token hash');
  const flow: Flow = hash.startsWith('pkce_') ? 'pkce' : 'implicit';
  const target = new URL(redirectTo);
  try {
    enforceRateLimit(service, req, 'verify');
    if (!VERIFY_TYPES.has(type) || type === 'email')
      throw badRequest('validation_failed', 'Unsupported verification type');
    const outcome = await transaction(service, async (db) => {
      const found = await verifyTokenHash(service, db, hash, type);
      const verified = await applyVerification(service, db, req, found.user, found.type, hash);
      if ('pendingSecondLink' in verified)
        return { kind: 'message', message: SINGLE_CONFIRMATION_ACCEPTED } as const;
      if (flow === 'implicit') {
        return {
          kind: 'session',
          session: await issueSession(db, service.tokens, verified.user, 'otp', grantContext(req)),
        } as const;
      }
      const method = AUTH_METHOD_FOR[found.type] ?? found.type;
      const { rows } = await db.query<{ auth_code: string }>(
        `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
          where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                       order by created_at desc limit 1)
          returning auth_code`,
        [verified.user.id, method],
      );
      const code = rows[0]?.auth_code;
      if (!code)
        throw unprocessable(
          'flow_state_not_found',
          'No associated flow state found. No valid flow state found for user.',
        );
      return { kind: 'code', code } as const;
    });
    if (outcome.kind === 'message') {
      if (flow === 'pkce') target.searchParams.set('message', outcome.message);
      target.hash = fragment({ message: outcome.message });
    } else if (outcome.kind === 'code') {
      target.searchParams.set('code', outcome.code);
    } else {
      const s = outcome.session;
      target.hash = fragment({
        access_token: String(s.access_token),
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        refresh_token: String(s.refresh_token),
        token_type: 'bearer',
        type,
      });
    }
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    const params: Record<string, string> = {};
    const oauth = OAUTH_ERROR_FOR_STATUS[error.status];
    if (oauth) params.error = oauth;
    params.error_code = error.code;
    params.error_description = error.message;
    if (flow === 'pkce') for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    target.hash = fragment(params);
  }
  return { status: 303, headers: { Location: target.toString() } };
}
