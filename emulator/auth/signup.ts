// POST /signup: a new user by email and password, confirmed by email unless autoconfirm is on
// (supabase/auth internal/api/signup.go). Without an email or a phone it is an anonymous sign-in.
import { randomUUID } from 'node:crypto';
import {
  type AuthRequest,
  type AuthService,
  type Reply,
  grantContext,
  json,
  transaction,
} from './context.ts';
import { enforceRateLimit } from './middleware.ts';
import { objectParam, stringParam } from './params.ts';
import { checkPasswordStrength } from './password.ts';
import { createFlowState, validatePkceParams } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { signupAnonymously } from './anonymous.ts';
import { sendConfirmation, validateEmail } from './emails.ts';
import { badRequest, unprocessable } from './errors.ts';
import { clearOneTimeTokens } from './one-time-tokens.ts';
import { issueSession } from './sessions.ts';
import {
  type Queryable,
  type UserRow,
  audit,
  createUser,
  findUserByEmail,
  findUserById,
  fullUserJson,
} from './users.ts';

type Flow = 'pkce' | 'implicit';

export interface SignupInput {
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
export async function signUp(
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

export async function confirmUser(db: Queryable, userId: string): Promise<UserRow> {
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
