// The emails GoTrue sends, each with a fresh one-time code whose hash is stored on the user and in
// auth.one_time_tokens (supabase/auth internal/api/mail.go).
import type { AuthService } from './context.ts';
import { checkEmailBudget, checkSendFrequency } from './context.ts';
import { generateOtp, tokenHash } from './crypto.ts';
import { storeOneTimeToken } from './one-time-tokens.ts';
import type { Queryable, UserRow } from './users.ts';

type Flow = 'pkce' | 'implicit';

function withFlowPrefix(hash: string, flow: Flow): string {
  return flow === 'pkce' ? `pkce_${hash}` : hash;
}

function newCode(service: AuthService, email: string, flow: Flow): { otp: string; hash: string } {
  const otp = generateOtp(service.settings.email.otpLength);
  return { otp, hash: withFlowPrefix(tokenHash(email, otp), flow) };
}

export async function sendConfirmation(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  flow: Flow,
  redirectTo: string,
): Promise<void> {
  checkSendFrequency(service, user.confirmation_sent_at);
  checkEmailBudget(service);
  const email = user.email ?? '';
  const { otp, hash } = newCode(service, email, flow);
  await db.query(
    'update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1',
    [user.id, hash],
  );
  await storeOneTimeToken(db, user.id, 'confirmation_token', hash, email);
  service.mailer.send({
    template: 'confirmation',
    to: email,
    otp,
    tokenHash: hash,
    redirectTo,
    email,
    data: user.raw_user_meta_data ?? {},
  });
}

export async function sendInvite(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  redirectTo: string,
): Promise<void> {
  checkEmailBudget(service);
  const email = user.email ?? '';
  const { otp, hash } = newCode(service, email, 'implicit');
  await db.query(
    'update auth.users set confirmation_token = $2, confirmation_sent_at = now(), invited_at = now(), updated_at = now() where id = $1',
    [user.id, hash],
  );
  await storeOneTimeToken(db, user.id, 'confirmation_token', hash, email);
  service.mailer.send({
    template: 'invite',
    to: email,
    otp,
    tokenHash: hash,
    redirectTo,
    email,
    data: user.raw_user_meta_data ?? {},
  });
}

/** Recovery and magic-link emails share the recovery token, as in GoTrue. */
export async function sendRecoveryOrMagicLink(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  template: 'recovery' | 'magic_link',
  flow: Flow,
  redirectTo: string,
): Promise<void> {
  checkSendFrequency(service, user.recovery_sent_at);
  checkEmailBudget(service);
  const email = user.email ?? '';
  const { otp, hash } = newCode(service, email, flow);
  await db.query(
    'update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1',
    [user.id, hash],
  );
  await storeOneTimeToken(db, user.id, 'recovery_token', hash, email);
  service.mailer.send({
    template,
    to: email,
    otp,
    tokenHash: hash,
    redirectTo,
    email,
    data: user.raw_user_meta_data ?? {},
  });
}

/**
 * An email change: a link to the new address and, with double_confirm_changes (secure email change),
 * another to the current one; both must be followed before the address changes.
 */
export async function sendEmailChange(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  newEmail: string,
  flow: Flow,
  redirectTo: string,
): Promise<void> {
  checkSendFrequency(service, user.email_change_sent_at);
  checkEmailBudget(service);
  const current = user.email ?? '';
  const fresh = newCode(service, newEmail, flow);
  const secure = service.settings.email.doubleConfirmChanges && current !== '';
  const old = secure ? newCode(service, current, flow) : null;
  await db.query(
    `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
        email_change_confirm_status = 0, email_change_sent_at = now(), updated_at = now()
      where id = $1`,
    [user.id, newEmail, fresh.hash, old?.hash ?? ''],
  );
  await storeOneTimeToken(db, user.id, 'email_change_token_new', fresh.hash, newEmail);
  if (old) await storeOneTimeToken(db, user.id, 'email_change_token_current', old.hash, current);
  const data = user.raw_user_meta_data ?? {};
  service.mailer.send({
    template: 'email_change',
    to: newEmail,
    otp: fresh.otp,
    tokenHash: fresh.hash,
    redirectTo,
    email: current,
    newEmail,
    data,
  });
  if (old) {
    service.mailer.send({
      template: 'email_change',
      to: current,
      otp: old.otp,
      tokenHash: old.hash,
      redirectTo,
      email: current,
      newEmail,
      data,
    });
  }
}

export async function sendReauthentication(
  service: AuthService,
  db: Queryable,
  user: UserRow,
): Promise<void> {
  checkSendFrequency(service, user.reauthentication_sent_at);
  checkEmailBudget(service);
  const email = user.email ?? '';
  const { otp, hash } = newCode(service, email, 'implicit');
  await db.query(
    'update auth.users set reauthentication_token = $2, reauthentication_sent_at = now(), updated_at = now() where id = $1',
    [user.id, hash],
  );
  await storeOneTimeToken(db, user.id, 'reauthentication_token', hash, email);
  service.mailer.send({
    template: 'reauthentication',
    to: email,
    otp,
    tokenHash: hash,
    redirectTo: service.settings.siteUrl,
    email,
    data: user.raw_user_meta_data ?? {},
  });
}
