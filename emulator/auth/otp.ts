// POST /otp and /magiclink: an emailed code and link that sign in, signing up an unknown address
// unless create_user is false (supabase/auth internal/api/otp.go, magic_link.go).
import { randomBytes } from 'node:crypto';
import { type AuthRequest, type AuthService, type Reply, json, transaction } from './context.ts';
import { enforceRateLimit } from './middleware.ts';
import { boolParam, objectParam, stringParam } from './params.ts';
import { createFlowState, validatePkceParams } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { signUp } from './signup.ts';
import { sendRecoveryOrMagicLink, validateEmail } from './emails.ts';
import { AuthError, badRequest, unprocessable } from './errors.ts';
import { audit, findUserByEmail } from './users.ts';

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
