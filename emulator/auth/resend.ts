// POST /resend: the signup or email-change email again (supabase/auth internal/api/resend.go).
import { type AuthRequest, type AuthService, type Reply, json, transaction } from './context.ts';
import { enforceRateLimit } from './middleware.ts';
import { stringParam } from './params.ts';
import { createFlowState, validatePkceParams } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { sendConfirmation, sendEmailChange, validateEmail } from './emails.ts';
import { badRequest } from './errors.ts';
import { audit, findUserByEmail } from './users.ts';

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
