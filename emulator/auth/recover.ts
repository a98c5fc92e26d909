// POST /recover: the password-recovery email (supabase/auth internal/api/recover.go).
import { type AuthRequest, type AuthService, type Reply, json, transaction } from './context.ts';
import { enforceRateLimit } from './middleware.ts';
import { stringParam } from './params.ts';
import { createFlowState, validatePkceParams } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { sendRecoveryOrMagicLink, validateEmail } from './emails.ts';
import { badRequest } from './errors.ts';
import { audit, findUserByEmail } from './users.ts';

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
