// The signed-in user's own account: GET/PUT /user, /logout, /reauthenticate
// (supabase/auth internal/api/user.go, logout.go, reauthenticate.go).
import { type AuthRequest, type AuthService, type Reply, json, transaction } from './context.ts';
import { enforceRateLimit } from './middleware.ts';
import { objectParam, stringParam } from './params.ts';
import { checkPasswordStrength } from './password.ts';
import { createFlowState, validatePkceParams } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { tokenHash } from './crypto.ts';
import { sendEmailChange, sendReauthentication, validateEmail } from './emails.ts';
import { AuthError, badRequest, forbidden, otpExpired, unprocessable } from './errors.ts';
import { clearOneTimeTokens } from './one-time-tokens.ts';
import {
  authenticate,
  logoutAllExcept,
  logoutEverywhere,
  logoutSession,
  sessionAssurance,
} from './sessions.ts';
import {
  audit,
  confirmEmailChange,
  findUserByEmail,
  findUserById,
  fullUserJson,
  loadFactors,
  mergeMetadata,
  passwordMatches,
  setPassword,
} from './users.ts';

export async function getUser(service: AuthService, req: AuthRequest): Promise<Reply> {
  const { user } = await authenticate(service.pool, service.keys, req.bearer);
  return json(await fullUserJson(service.pool, user));
}

export async function updateUser(service: AuthService, req: AuthRequest): Promise<Reply> {
  const caller = await authenticate(service.pool, service.keys, req.bearer);
  enforceRateLimit(service, req, 'otp');
  const body = req.body;
  const email = stringParam(body, 'email');
  const phone = stringParam(body, 'phone');
  const hasPassword = body.password !== undefined && body.password !== null;
  const password = stringParam(body, 'password');
  const nonce = stringParam(body, 'nonce');
  const data = objectParam(body, 'data');
  const appData = objectParam(body, 'app_metadata');
  const challenge = stringParam(body, 'code_challenge');
  const challengeMethod = stringParam(body, 'code_challenge_method');
  const flow = validatePkceParams(challenge, challengeMethod);
  if (hasPassword) checkPasswordStrength(service.settings, password);
  const newEmail = email === '' ? '' : validateEmail(email);
  if (phone !== '') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');

  const user = caller.user;
  if (appData) throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  // An anonymous user gets a password only with the email it is linking (internal/api/user.go).
  if (user.is_anonymous && hasPassword && password !== '' && newEmail === '') {
    throw unprocessable(
      'validation_failed',
      'Updating password of an anonymous user without an email or phone is not allowed',
    );
  }
  const factors = await loadFactors(service.pool, user.id);
  const mfaEnabled = factors.some((f) => f.status === 'verified');
  if (mfaEnabled) {
    const aal = caller.session ? (await sessionAssurance(service.pool, caller.session.id)).aal : 'aal1';
    const changesCredentials =
      (hasPassword && password !== '') || (newEmail !== '' && newEmail !== user.email);
    if (aal !== 'aal2' && changesCredentials) {
      throw new AuthError(
        401,
        'insufficient_aal',
        'AAL2 session is required to update email or password when MFA is enabled.',
      );
    }
  }
  if (newEmail !== '' && newEmail !== user.email) {
    const other = await findUserByEmail(service.pool, newEmail);
    if (other && other.id !== user.id) {
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    }
  }
  if (hasPassword) {
    const session = caller.session;
    const stale = !session || Date.now() > session.created_at.getTime() + 24 * 3600 * 1000;
    if (service.settings.email.securePasswordChange && stale) {
      if (nonce === '')
        throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
      const expected = tokenHash(user.email ?? '', nonce);
      const sentAt = user.reauthentication_sent_at;
      const fresh = sentAt && Date.now() <= sentAt.getTime() + service.settings.email.otpExpiry * 1000;
      if (user.reauthentication_token !== expected || !fresh) throw otpExpired();
    }
    if (password !== '' && (await passwordMatches(service.pool, user.id, password))) {
      throw unprocessable('same_password', 'New password should be different from the old password.');
    }
  }
  const redirectTo = redirectTarget(service, req);

  await transaction(service, async (db) => {
    if (hasPassword) {
      await setPassword(db, user.id, password);
      await db.query(
        `update auth.users set confirmation_token = '', confirmation_sent_at = null, recovery_token = '',
            recovery_sent_at = null, email_change_token_current = '', email_change_token_new = '',
            email_change_sent_at = null, reauthentication_token = '', reauthentication_sent_at = null
          where id = $1`,
        [user.id],
      );
      await clearOneTimeTokens(db, user.id);
      // A new password signs every other device out (GoTrue's UpdatePassword).
      if (caller.session) await logoutAllExcept(db, user.id, caller.session.id);
      else await logoutEverywhere(db, user.id);
      await audit(db, user, 'user_updated_password', req.ip, {});
    }
    if (data) {
      await db.query('update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1', [
        user.id,
        mergeMetadata(user.raw_user_meta_data, data),
      ]);
    }
    if (newEmail !== '' && newEmail !== user.email) {
      const current = await findUserById(db, user.id, true);
      if (!current) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
      if (current.is_anonymous && !service.settings.email.enableConfirmations) {
        // Linking an email to an anonymous user under autoconfirm is a sign-up: no email is sent
        // (user.go's UserUpdate, then emailChangeVerify).
        await db.query('update auth.users set email_change = $2 where id = $1', [user.id, newEmail]);
        await audit(db, user, 'user_modified', req.ip, {});
        await confirmEmailChange(db, user.id, newEmail);
      } else if (!service.settings.email.enableConfirmations) {
        await db.query(
          `update auth.users set email = $2, email_change = '', email_change_confirm_status = 0, updated_at = now() where id = $1`,
          [user.id, newEmail],
        );
        await db.query(
          `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true)
            where user_id = $1 and provider = 'email'`,
          [user.id, newEmail],
        );
      } else {
        if (flow === 'pkce') await createFlowState(db, user.id, 'email_change', challenge, challengeMethod);
        await sendEmailChange(service, db, current, newEmail, flow, redirectTo);
      }
    }
    await audit(db, user, 'user_modified', req.ip, {});
  });
  const updated = await findUserById(service.pool, user.id);
  return json(await fullUserJson(service.pool, updated ?? user));
}

export async function logout(service: AuthService, req: AuthRequest): Promise<Reply> {
  const scope = req.query.get('scope') ?? '';
  if (!['', 'global', 'local', 'others'].includes(scope)) {
    throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
  }
  const { user, session } = await authenticate(service.pool, service.keys, req.bearer);
  await transaction(service, async (db) => {
    await audit(db, user, 'logout', req.ip, {}, 'account');
    if (session && scope === 'local') await logoutSession(db, session.id);
    else if (session && scope === 'others') await logoutAllExcept(db, user.id, session.id);
    else await logoutEverywhere(db, user.id);
  });
  return { status: 204 };
}

export async function reauthenticate(service: AuthService, req: AuthRequest): Promise<Reply> {
  const { user } = await authenticate(service.pool, service.keys, req.bearer);
  if (!user.email) {
    throw badRequest(
      'validation_failed',
      'Reauthentication requires the user to have an email or a phone number',
    );
  }
  if (!user.email_confirmed_at) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
  await transaction(service, async (db) => {
    const current = await findUserById(db, user.id, true);
    if (current) await sendReauthentication(service, db, current);
  });
  return json({});
}
