// The emails GoTrue sends, each with a fresh one-time code whose hash is stored on the user and in
// auth.one_time_tokens (supabase/auth internal/api/mail.go).
import type { AuthService } from './context.ts';
import { badRequest, tooManyRequests } from './errors.ts';
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

interface TokenEmail {
  template: 'confirmation' | 'invite' | 'recovery' | 'magic_link' | 'reauthentication';
  /** The users column holding the token hash, and the one recording when it was sent. */
  column: 'confirmation_token' | 'recovery_token' | 'reauthentication_token';
  sentAt: 'confirmation_sent_at' | 'recovery_sent_at' | 'reauthentication_sent_at';
  flow: Flow;
  redirectTo: string;
  /** Invitations are sent by an admin and skip the per-address frequency limit, as in GoTrue. */
  checkFrequency: boolean;
}

/** One email carrying one code: stored as a hash on the user and in auth.one_time_tokens. */
async function sendTokenEmail(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  email: TokenEmail,
): Promise<void> {
  if (email.checkFrequency) checkSendFrequency(service, user[email.sentAt]);
  checkEmailBudget(service);
  const address = user.email ?? '';
  const { otp, hash } = newCode(service, address, email.flow);
  const invited = email.template === 'invite' ? ', invited_at = now()' : '';
  // Column names come from the closed set in TokenEmail, never from input.
  await db.query(
    `update auth.users set ${email.column} = $2, ${email.sentAt} = now()${invited}, updated_at = now() where id = $1`,
    [user.id, hash],
  );
  await storeOneTimeToken(db, user.id, email.column, hash, address);
  service.mailer.send({
    template: email.template,
    to: address,
    otp,
    tokenHash: hash,
    redirectTo: email.redirectTo,
    email: address,
    data: user.raw_user_meta_data ?? {},
  });
}

export function sendConfirmation(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  flow: Flow,
  redirectTo: string,
): Promise<void> {
  return sendTokenEmail(service, db, user, {
    template: 'confirmation',
    column: 'confirmation_token',
    sentAt: 'confirmation_sent_at',
    flow,
    redirectTo,
    checkFrequency: true,
  });
}

export function sendInvite(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  redirectTo: string,
): Promise<void> {
  return sendTokenEmail(service, db, user, {
    template: 'invite',
    column: 'confirmation_token',
    sentAt: 'confirmation_sent_at',
    flow: 'implicit',
    redirectTo,
    checkFrequency: false,
  });
}

/** Recovery and magic-link emails share the recovery token, as in GoTrue. */
export function sendRecoveryOrMagicLink(
  service: AuthService,
  db: Queryable,
  user: UserRow,
  template: 'recovery' | 'magic_link',
  flow: Flow,
  redirectTo: string,
): Promise<void> {
  return sendTokenEmail(service, db, user, {
    template,
    column: 'recovery_token',
    sentAt: 'recovery_sent_at',
    flow,
    redirectTo,
    checkFrequency: true,
  });
}

export function sendReauthentication(service: AuthService, db: Queryable, user: UserRow): Promise<void> {
  return sendTokenEmail(service, db, user, {
    template: 'reauthentication',
    column: 'reauthentication_token',
    sentAt: 'reauthentication_sent_at',
    flow: 'implicit',
    redirectTo: service.settings.siteUrl,
    checkFrequency: true,
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

// Addresses and how often mail goes out (internal/api/mail.go validateEmail, and its send limits).
// Close to the checkmail format check GoTrue uses: one @, a dotted domain, no spaces or control characters.
const EMAIL_PATTERN =
  /^[^\s@"<>()[\]\\,;:\x00-\x1f\x7f]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

export function validateEmail(email: string): string {
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_PATTERN.test(email))
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return email.toLowerCase();
}

/** GoTrue's per-address send frequency (`max_frequency`). */
export function checkSendFrequency(service: AuthService, sentAt: Date | null): void {
  if (!sentAt) return;
  const until = sentAt.getTime() + service.settings.email.maxFrequency * 1000;
  if (until > Date.now()) {
    const left = Math.floor((until - Date.now()) / 1000);
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${left} seconds.`,
    );
  }
}

/** The project-wide hourly cap on emails sent (`[auth.rate_limit] email_sent`). */
export function checkEmailBudget(service: AuthService): void {
  if (service.settings.email.enableConfirmations === false) return;
  if (!service.limiters.email.allow(service.settings.rateLimit.emailSent)) {
    throw tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded');
  }
}
