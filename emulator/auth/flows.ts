// Signing up and in: /signup, /token, /otp, /verify, /resend, /recover
// (supabase/auth internal/api/signup.go, token.go, otp.go, magic_link.go, verify.go, resend.go, recover.go).
import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  type AuthRequest,
  type AuthService,
  type Reply,
  boolParam,
  checkPasswordStrength,
  createFlowState,
  enforceRateLimit,
  grantContext,
  json,
  objectParam,
  redirectTarget,
  stringParam,
  transaction,
  validateEmail,
  validatePkceParams,
} from './context.ts';
import { signupAnonymously } from './anonymous.ts';
import { pkceMatches, tokenHash } from './crypto.ts';
import { sendConfirmation, sendEmailChange, sendRecoveryOrMagicLink } from './emails.ts';
import {
  AuthError,
  badRequest,
  invalidCredentials,
  linkExpired,
  notFound,
  otpExpired,
  unprocessable,
} from './errors.ts';
import { clearOneTimeTokens, findUserByOneTimeToken, type OneTimeTokenType } from './one-time-tokens.ts';
import { issueSession, refreshGrant } from './sessions.ts';
import {
  type Queryable,
  type UserRow,
  audit,
  confirmEmailChange,
  createUser,
  findUserByEmail,
  findUserById,
  fullUserJson,
  isBanned,
  passwordMatches,
} from './users.ts';

type Flow = 'pkce' | 'implicit';

// ---------------------------------------------------------------------------------------- signup

interface SignupInput {
  email: string;
  password: string;
  data: Record<string, unknown>;
  flow: Flow;
  challenge: string;
  challengeMethod: string;
}

/** A stand-in user for an already registered address, so the response does not reveal it. */
function obfuscatedUser(email: string, data: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/** The shared core of /signup and of /otp for addresses without a confirmed account. */
async function signUp(
  service: AuthService,
  req: AuthRequest,
  input: SignupInput,
): Promise<
  { kind: 'session'; body: Record<string, unknown> } | { kind: 'user'; body: Record<string, unknown> }
> {
  const autoconfirm = !service.settings.email.enableConfirmations;
  const redirectTo = redirectTarget(service, req);
  return transaction(service, async (db) => {
    let user = await findUserByEmail(db, input.email, true);
    if (user?.email_confirmed_at) {
      await audit(db, user, 'user_repeated_signup', req.ip, { provider: 'email' });
      if (autoconfirm) throw unprocessable('user_already_exists', 'User already registered');
      return { kind: 'user', body: obfuscatedUser(input.email, input.data) };
    }
    if (!user) {
      user = await createUser(db, { email: input.email, password: input.password, userMetadata: input.data });
    }
    if (autoconfirm) {
      await audit(db, user, 'user_signedup', req.ip, { provider: 'email' });
      const confirmed = await confirmUser(db, user.id);
      const session = await issueSession(db, service.tokens, confirmed, 'password', grantContext(req));
      return { kind: 'session', body: session };
    }
    await audit(db, user, 'user_confirmation_requested', req.ip, { provider: 'email' });
    if (input.flow === 'pkce') {
      await createFlowState(db, user.id, 'email/signup', input.challenge, input.challengeMethod);
    }
    await sendConfirmation(service, db, user, input.flow, redirectTo);
    const fresh = await findUserById(db, user.id);
    return { kind: 'user', body: await fullUserJson(db, fresh ?? user) };
  });
}

async function confirmUser(db: Queryable, userId: string): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
        updated_at = now()
      where id = $1 returning *`,
    [userId],
  );
  await clearOneTimeTokens(db, userId, 'confirmation_token');
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId],
  );
  const user = rows[0];
  if (!user) throw new Error(`user ${userId} vanished while being confirmed`);
  return user;
}

export async function signup(service: AuthService, req: AuthRequest): Promise<Reply> {
  const body = req.body;
  const email = stringParam(body, 'email');
  const phone = stringParam(body, 'phone');
  // Without an email or a phone, /signup is an anonymous sign-in, limited per hour by its own
  // bucket instead of the sign-up one (the /signup route in supabase/auth internal/api/api.go).
  if (email === '' && phone === '') {
    if (!service.settings.enableAnonymousSignIns) {
      throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    }
    enforceRateLimit(service, req, 'anonymous');
    return signupAnonymously(service, req);
  }
  enforceRateLimit(service, req, 'otp');
  if (!service.settings.enableSignup)
    throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  const password = stringParam(body, 'password');
  const data = objectParam(body, 'data') ?? {};
  const challenge = stringParam(body, 'code_challenge');
  const challengeMethod = stringParam(body, 'code_challenge_method');
  if (email !== '' && phone !== '') {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on signup.',
    );
  }
  if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password');
  checkPasswordStrength(service.settings, password);
  const flow = validatePkceParams(challenge, challengeMethod);
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  if (!service.settings.email.enableSignup)
    throw badRequest('email_provider_disabled', 'Email signups are disabled');
  const result = await signUp(service, req, {
    email: validateEmail(email),
    password,
    data,
    flow,
    challenge,
    challengeMethod,
  });
  return json(result.body);
}

// ----------------------------------------------------------------------------------------- token

// Every grant shares one limiter, RATE_LIMIT_TOKEN_REFRESH (supabase/auth internal/api/token.go):
// password sign-ins and refreshes draw from the same bucket.
export async function token(service: AuthService, req: AuthRequest): Promise<Reply> {
  const grantType = req.query.get('grant_type') ?? '';
  if (!['password', 'refresh_token', 'pkce'].includes(grantType)) {
    throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
  enforceRateLimit(service, req, 'token');
  switch (grantType) {
    case 'password':
      return json(await passwordGrant(service, req));
    case 'refresh_token':
      return json(
        await refreshGrant(
          service.pool,
          service.tokens,
          stringParam(req.body, 'refresh_token'),
          grantContext(req),
        ),
      );
    case 'pkce':
      return json(await pkceGrant(service, req));
    default:
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
}

async function passwordGrant(service: AuthService, req: AuthRequest): Promise<Record<string, unknown>> {
  const email = stringParam(req.body, 'email');
  const phone = stringParam(req.body, 'phone');
  const password = stringParam(req.body, 'password');
  if (email !== '' && phone !== '') {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    );
  }
  if (phone !== '') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  if (email === '') throw badRequest('validation_failed', 'missing email or phone');
  return transaction(service, async (db) => {
    const user = await findUserByEmail(db, email);
    if (!user) throw invalidCredentials();
    if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
    if (!(await passwordMatches(db, user.id, password))) {
      await audit(db, user, 'login_failed', req.ip, { reason: 'invalid password' }, 'account');
      throw invalidCredentials();
    }
    if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
    return issueSession(db, service.tokens, user, 'password', grantContext(req));
  });
}

interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge: string;
  code_challenge_method: string;
  authentication_method: string;
  created_at: Date;
  auth_code_issued_at: Date | null;
}

const FLOW_STATE_TTL_MS = 5 * 60 * 1000;

async function pkceGrant(service: AuthService, req: AuthRequest): Promise<Record<string, unknown>> {
  const authCode = stringParam(req.body, 'auth_code');
  const verifier = stringParam(req.body, 'code_verifier');
  if (authCode === '' || verifier === '') {
    throw badRequest(
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  return transaction(service, async (db) => {
    const { rows } = await db.query<FlowStateRow>(
      `select id, user_id, code_challenge, code_challenge_method, authentication_method, created_at, auth_code_issued_at
         from auth.flow_state where auth_code = $1 for update`,
      [authCode],
    );
    const state = rows[0];
    if (!state || !state.user_id) {
      throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    const startedAt =
      state.authentication_method === 'magiclink' && state.auth_code_issued_at
        ? state.auth_code_issued_at
        : state.created_at;
    if (Date.now() > startedAt.getTime() + FLOW_STATE_TTL_MS) {
      throw unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
    }
    if (!pkceMatches(state.code_challenge, state.code_challenge_method, verifier)) {
      throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    const user = await findUserById(db, state.user_id);
    if (!user) throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    await db.query('delete from auth.flow_state where id = $1', [state.id]);
    return issueSession(db, service.tokens, user, state.authentication_method, grantContext(req));
  });
}

// ------------------------------------------------------------------------------------------- otp

export async function otp(service: AuthService, req: AuthRequest): Promise<Reply> {
  enforceRateLimit(service, req, 'otp');
  const body = req.body;
  const email = stringParam(body, 'email');
  const phone = stringParam(body, 'phone');
  const createUserAllowed = boolParam(body, 'create_user', true);
  const data = objectParam(body, 'data') ?? {};
  const challenge = stringParam(body, 'code_challenge');
  const challengeMethod = stringParam(body, 'code_challenge_method');
  if (email !== '' && phone !== '') {
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided');
  }
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
  if (email === '') throw badRequest('validation_failed', 'One of email or phone must be set');
  const address = validateEmail(email);
  const flow = validatePkceParams(challenge, challengeMethod);

  const existing = await findUserByEmail(service.pool, address);
  if (!existing && (!createUserAllowed || !service.settings.enableSignup)) {
    throw unprocessable('otp_disabled', 'Signups not allowed for otp');
  }
  if (!existing?.email_confirmed_at) {
    // A new or unconfirmed address signs up with a random password; the confirmation email carries the code.
    const password = randomBytes(24).toString('base64url');
    const result = await signUp(service, req, {
      email: address,
      password,
      data,
      flow,
      challenge,
      challengeMethod,
    });
    if (result.kind === 'user') return json({});
  }
  const redirectTo = redirectTarget(service, req);
  await transaction(service, async (db) => {
    const user = await findUserByEmail(db, address, true);
    if (!user) throw new AuthError(500, 'unexpected_failure', 'Database error finding user');
    if (flow === 'pkce') await createFlowState(db, user.id, 'magiclink', challenge, challengeMethod);
    await audit(db, user, 'user_recovery_requested', req.ip, {});
    await sendRecoveryOrMagicLink(service, db, user, 'magic_link', flow, redirectTo);
  });
  return json({});
}

// ---------------------------------------------------------------------------------------- verify

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
      `select id from auth.users where (lower(email_change) = lower($1) and email_change_token_new in ($2, 'pkce_' || $2))
          or (lower(email) = lower($1) and email_change_token_current in ($2, 'pkce_' || $2)) limit 1`,
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

// ------------------------------------------------------------------------------- resend, recover

export async function resend(service: AuthService, req: AuthRequest): Promise<Reply> {
  enforceRateLimit(service, req, 'otp');
  const body = req.body;
  const type = stringParam(body, 'type');
  const email = stringParam(body, 'email');
  const phone = stringParam(body, 'phone');
  const challenge = stringParam(body, 'code_challenge');
  const challengeMethod = stringParam(body, 'code_challenge_method');
  if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
    throw badRequest(
      'validation_failed',
      'Missing one of these types: signup, email_change, sms, phone_change',
    );
  }
  if ((type === 'signup' || type === 'email_change') && email === '') {
    throw badRequest('validation_failed', 'Type provided requires an email address');
  }
  if ((type === 'sms' || type === 'phone_change') && phone === '') {
    throw badRequest('validation_failed', 'Type provided requires a phone number');
  }
  if (email !== '' && phone !== '') {
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided.');
  }
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  const address = validateEmail(email);
  const flow = validatePkceParams(challenge, challengeMethod);
  const redirectTo = redirectTarget(service, req);
  await transaction(service, async (db) => {
    const user = await findUserByEmail(db, address, true);
    if (!user) return;
    if (type === 'signup') {
      if (user.email_confirmed_at) return;
      await audit(db, user, 'user_confirmation_requested', req.ip, {});
      if (flow === 'pkce') await createFlowState(db, user.id, 'email/signup', challenge, challengeMethod);
      await sendConfirmation(service, db, user, flow, redirectTo);
    } else {
      if (!user.email_change) return;
      if (flow === 'pkce') await createFlowState(db, user.id, 'email_change', challenge, challengeMethod);
      await sendEmailChange(service, db, user, user.email_change, flow, redirectTo);
    }
  });
  return json({});
}

export async function recover(service: AuthService, req: AuthRequest): Promise<Reply> {
  enforceRateLimit(service, req, 'otp');
  const body = req.body;
  const email = stringParam(body, 'email');
  const challenge = stringParam(body, 'code_challenge');
  const challengeMethod = stringParam(body, 'code_challenge_method');
  if (email === '') throw badRequest('validation_failed', 'Password recovery requires an email');
  const address = validateEmail(email);
  const flow = validatePkceParams(challenge, challengeMethod);
  const redirectTo = redirectTarget(service, req);
  await transaction(service, async (db) => {
    const user = await findUserByEmail(db, address, true);
    if (!user) return;
    await audit(db, user, 'user_recovery_requested', req.ip, {});
    if (flow === 'pkce') await createFlowState(db, user.id, 'recovery', challenge, challengeMethod);
    await sendRecoveryOrMagicLink(service, db, user, 'recovery', flow, redirectTo);
  });
  return json({});
}
