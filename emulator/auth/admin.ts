// The service-role API: /admin/users, /admin/generate_link, /invite, admin factor management
// (supabase/auth internal/api/admin.go, mail.go adminGenerateLink, invite.go).
import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { type AuthRequest, type AuthService, type Reply, json, transaction } from './context.ts';
import { boolParam, objectParam, stringParam } from './params.ts';
import { checkPasswordStrength } from './password.ts';
import { redirectTarget } from './redirects.ts';
import { generateOtp, tokenHash } from './crypto.ts';
import { sendInvite, validateEmail } from './emails.ts';
import { AuthError, badRequest, forbidden, notFound, unprocessable } from './errors.ts';
import { storeOneTimeToken } from './one-time-tokens.ts';
import { verifyJwt } from '../keys.ts';
import { downgradeSessionsOfFactor } from './sessions.ts';
import {
  type FactorRow,
  type UserRow,
  audit,
  createUser,
  findUserByEmail,
  findUserById,
  fullUserJson,
  isUuid,
  loadFactors,
  factorJson,
  mergeMetadata,
  setPassword,
  userJson,
  loadIdentities,
} from './users.ts';

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export async function requireAdmin(service: AuthService, req: AuthRequest): Promise<void> {
  if (!req.bearer)
    throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  let claims: Record<string, unknown>;
  try {
    decodeProtectedHeader(req.bearer);
    claims = await verifyJwt(service.keys, req.bearer);
  } catch {
    throw forbidden('bad_jwt', 'invalid JWT: unable to parse or verify signature, signature is invalid');
  }
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
    throw forbidden('not_admin', 'User not allowed');
  }
}

function userNotFound(): AuthError {
  return notFound('user_not_found', 'User not found');
}

async function loadTarget(service: AuthService, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound('user_not_found', 'User not found');
  const user = await findUserById(service.pool, id);
  if (!user) throw userNotFound();
  return user;
}

function banUntil(duration: string): Date | null | undefined {
  if (duration === '') return undefined;
  if (duration === 'none') return null;
  const match = duration.match(/^(\d+)(h|m|s)$/);
  if (!match) throw badRequest('validation_failed', 'invalid format for ban duration: ' + duration);
  const unit = { h: 3600, m: 60, s: 1 }[match[2] as 'h' | 'm' | 's'];
  return new Date(Date.now() + Number(match[1]) * unit * 1000);
}

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * `page` and `per_page` as GoTrue reads them (internal/api/pagination.go paginate): Go's
 * strconv.ParseUint, so a sign, a fraction or a value past 2^64 - 1 is a 400, not page 1 or a 500.
 */
function pageParameter(raw: string | null, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    throw badRequest(
      'validation_failed',
      `Bad Pagination Parameters: strconv.ParseUint: parsing "${raw}": invalid syntax`,
    );
  }
  if (BigInt(raw) > MAX_UINT64) {
    throw badRequest(
      'validation_failed',
      `Bad Pagination Parameters: strconv.ParseUint: parsing "${raw}": value out of range`,
    );
  }
  // Every page past the last row is empty alike; capping keeps the offset a number PostgreSQL takes.
  const value = BigInt(raw);
  return value > 2n ** 40n ? 2 ** 40 : Number(value);
}

export async function listUsers(service: AuthService, req: AuthRequest): Promise<Reply> {
  const page = Math.max(1, pageParameter(req.query.get('page'), 1));
  const perPage = Math.min(1000, Math.max(1, pageParameter(req.query.get('per_page'), 50)));
  const [{ rows: users }, { rows: counts }] = await Promise.all([
    service.pool.query<UserRow>(
      `select * from auth.users where instance_id = '00000000-0000-0000-0000-000000000000'
        order by created_at desc, id limit $1 offset $2`,
      [perPage, (page - 1) * perPage],
    ),
    service.pool.query<{ n: string }>(
      "select count(*) as n from auth.users where instance_id = '00000000-0000-0000-0000-000000000000'",
    ),
  ]);
  const total = Number(counts[0]?.n ?? 0);
  const last = Math.max(1, Math.ceil(total / perPage));
  const base = `${service.apiExternalUrl}/auth/v1/admin/users`;
  const links: string[] = [];
  if (page < last) links.push(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`<${base}?page=${last}&per_page=${perPage}>; rel="last"`);
  const bodies = await Promise.all(users.map((u) => fullUserJson(service.pool, u)));
  return json({ users: bodies, aud: 'authenticated' }, 200, {
    'X-Total-Count': String(total),
    Link: links.join(', '),
  });
}

export async function createUserAsAdmin(service: AuthService, req: AuthRequest): Promise<Reply> {
  const body = req.body;
  const email = stringParam(body, 'email');
  const phone = stringParam(body, 'phone');
  const password = stringParam(body, 'password');
  const passwordHash = stringParam(body, 'password_hash');
  const id = stringParam(body, 'id');
  const role = stringParam(body, 'role');
  const banDuration = stringParam(body, 'ban_duration');
  const emailConfirm = boolParam(body, 'email_confirm', false);
  const userMetadata = objectParam(body, 'user_metadata') ?? objectParam(body, 'data') ?? {};
  const appMetadata = objectParam(body, 'app_metadata') ?? {};
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  if (email === '') throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  const address = validateEmail(email);
  if (password !== '') checkPasswordStrength(service.settings, password);
  if (passwordHash !== '' && !/^\$2[aby]\$\d\d\$/.test(passwordHash)) {
    throw badRequest('validation_failed', 'Invalid password hash format');
  }
  if (id !== '' && !isUuid(id))
    throw badRequest('validation_failed', 'ID must conform to the uuid v4 format');
  const ban = banUntil(banDuration);
  const created = await transaction(service, async (db) => {
    if (await findUserByEmail(db, address)) {
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    }
    const user = await createUser(db, {
      id: id || randomUUID(),
      email: address,
      password: password || null,
      passwordHash: passwordHash || null,
      userMetadata,
      appMetadata,
      confirmed: emailConfirm,
      role: role || 'authenticated',
    });
    if (ban !== undefined)
      await db.query('update auth.users set banned_until = $2 where id = $1', [user.id, ban]);
    await audit(db, user, 'user_signedup', req.ip, { provider: 'email' }, 'team');
    return (await findUserById(db, user.id)) ?? user;
  });
  return json(await fullUserJson(service.pool, created));
}

export async function getUserAsAdmin(service: AuthService, _req: AuthRequest, id: string): Promise<Reply> {
  return json(await fullUserJson(service.pool, await loadTarget(service, id)));
}

export async function updateUserAsAdmin(service: AuthService, req: AuthRequest, id: string): Promise<Reply> {
  const target = await loadTarget(service, id);
  const body = req.body;
  const email = stringParam(body, 'email');
  const password = stringParam(body, 'password');
  const role = stringParam(body, 'role');
  const banDuration = stringParam(body, 'ban_duration');
  const userMetadata = objectParam(body, 'user_metadata');
  const appMetadata = objectParam(body, 'app_metadata');
  const emailConfirm = boolParam(body, 'email_confirm', false);
  const ban = banUntil(banDuration);
  if (password !== '') checkPasswordStrength(service.settings, password);
  const address = email === '' ? '' : validateEmail(email);
  await transaction(service, async (db) => {
    if (address !== '' && address !== target.email) {
      const other = await findUserByEmail(db, address);
      if (other && other.id !== target.id) {
        throw unprocessable('email_exists', 'A user with this email address has already been registered');
      }
      await db.query('update auth.users set email = $2 where id = $1', [target.id, address]);
      await db.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
          where user_id = $1 and provider = 'email'`,
        [target.id, address],
      );
    }
    if (password !== '') await setPassword(db, target.id, password);
    if (role !== '') await db.query('update auth.users set role = $2 where id = $1', [target.id, role]);
    if (emailConfirm) {
      await db.query(
        'update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1',
        [target.id],
      );
    }
    if (ban !== undefined) {
      await db.query('update auth.users set banned_until = $2 where id = $1', [target.id, ban]);
      if (ban) await db.query('delete from auth.sessions where user_id = $1', [target.id]);
    }
    if (userMetadata) {
      await db.query('update auth.users set raw_user_meta_data = $2 where id = $1', [
        target.id,
        mergeMetadata(target.raw_user_meta_data, userMetadata),
      ]);
    }
    if (appMetadata) {
      await db.query('update auth.users set raw_app_meta_data = $2 where id = $1', [
        target.id,
        mergeMetadata(target.raw_app_meta_data, appMetadata),
      ]);
    }
    await db.query('update auth.users set updated_at = now() where id = $1', [target.id]);
    await audit(db, target, 'user_modified', req.ip, {}, 'team');
  });
  return json(await fullUserJson(service.pool, (await findUserById(service.pool, target.id)) ?? target));
}

export async function deleteUserAsAdmin(service: AuthService, req: AuthRequest, id: string): Promise<Reply> {
  const target = await loadTarget(service, id);
  const soft = boolParam(req.body, 'should_soft_delete', false);
  await transaction(service, async (db) => {
    await audit(db, target, 'user_deleted', req.ip, {}, 'team');
    if (soft) {
      await db.query(
        `update auth.users set deleted_at = now(), email = null, phone = null, encrypted_password = '',
            raw_user_meta_data = '{}', raw_app_meta_data = '{}' where id = $1`,
        [target.id],
      );
      await db.query('delete from auth.sessions where user_id = $1', [target.id]);
      await db.query('delete from auth.identities where user_id = $1', [target.id]);
    } else {
      await db.query('delete from auth.users where id = $1', [target.id]);
    }
  });
  return json(userJson(target, [], []));
}

export async function listFactorsAsAdmin(
  service: AuthService,
  _req: AuthRequest,
  id: string,
): Promise<Reply> {
  const target = await loadTarget(service, id);
  return json((await loadFactors(service.pool, target.id)).map(factorJson));
}

export async function deleteFactorAsAdmin(
  service: AuthService,
  req: AuthRequest,
  id: string,
  factorId: string,
): Promise<Reply> {
  const target = await loadTarget(service, id);
  if (!isUuid(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
  const factor = await transaction(service, async (db) => {
    const { rows } = await db.query<FactorRow>(
      'delete from auth.mfa_factors where id = $1 and user_id = $2 returning *',
      [factorId, target.id],
    );
    const deleted = rows[0];
    if (!deleted) throw notFound('mfa_factor_not_found', 'Factor not found');
    await audit(
      db,
      target,
      'factor_deleted',
      req.ip,
      { user_id: target.id, factor_id: deleted.id },
      'factor',
    );
    // As when the user unenrols it: sessions it raised to aal2 drop back to aal1.
    await downgradeSessionsOfFactor(db, deleted);
    return deleted;
  });
  return json(factorJson(factor));
}

const LINK_TEMPLATE: Record<string, 'confirmation' | 'invite' | 'magic_link' | 'recovery' | 'email_change'> =
  {
    signup: 'confirmation',
    invite: 'invite',
    magiclink: 'magic_link',
    recovery: 'recovery',
    email_change_current: 'email_change',
    email_change_new: 'email_change',
  };

/** Makes an email link without sending it; the response carries the link and the code. */
export async function generateLink(service: AuthService, req: AuthRequest): Promise<Reply> {
  const body = req.body;
  const type = stringParam(body, 'type');
  const email = stringParam(body, 'email');
  const password = stringParam(body, 'password');
  const newEmail = stringParam(body, 'new_email');
  const data = objectParam(body, 'data') ?? {};
  const template = LINK_TEMPLATE[type];
  if (!template) throw badRequest('validation_failed', `Invalid email action link type requested: ${type}`);
  const address = validateEmail(email);
  const redirectTo = redirectTarget(service, req, stringParam(body, 'redirect_to'));
  const otp = generateOtp(service.settings.email.otpLength);
  const hash = tokenHash(address, otp);

  const user = await transaction(service, async (db) => {
    let user = await findUserByEmail(db, address, true);
    if (!user && ['recovery', 'email_change_current', 'email_change_new'].includes(type)) {
      throw notFound('user_not_found', 'User with this email not found');
    }
    switch (type) {
      case 'magiclink':
      case 'recovery':
        if (!user) user = await createUser(db, { email: address, userMetadata: data });
        await db.query('update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1', [
          user.id,
          hash,
        ]);
        await storeOneTimeToken(db, user.id, 'recovery_token', hash, address);
        break;
      case 'invite':
        if (user?.email_confirmed_at) {
          throw unprocessable('email_exists', 'A user with this email address has already been registered');
        }
        if (!user) user = await createUser(db, { email: address, userMetadata: data });
        await db.query(
          'update auth.users set confirmation_token = $2, confirmation_sent_at = now(), invited_at = now() where id = $1',
          [user.id, hash],
        );
        await storeOneTimeToken(db, user.id, 'confirmation_token', hash, address);
        break;
      case 'signup':
        if (user?.email_confirmed_at) {
          throw unprocessable('email_exists', 'A user with this email address has already been registered');
        }
        if (password !== '') checkPasswordStrength(service.settings, password);
        if (!user)
          user = await createUser(db, { email: address, password: password || null, userMetadata: data });
        await db.query(
          'update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1',
          [user.id, hash],
        );
        await storeOneTimeToken(db, user.id, 'confirmation_token', hash, address);
        break;
      default: {
        if (!user) throw notFound('user_not_found', 'User with this email not found');
        const target = validateEmail(newEmail);
        const other = await findUserByEmail(db, target);
        if (other)
          throw unprocessable('email_exists', 'A user with this email address has already been registered');
        const current = type === 'email_change_current';
        const newHash = tokenHash(target, otp);
        await db.query(
          `update auth.users set email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0,
              email_change_token_current = $3, email_change_token_new = $4 where id = $1`,
          [user.id, target, current ? hash : '', current ? '' : newHash],
        );
        if (current) await storeOneTimeToken(db, user.id, 'email_change_token_current', hash, address);
        else await storeOneTimeToken(db, user.id, 'email_change_token_new', newHash, target);
      }
    }
    return (await findUserById(db, user.id)) ?? user;
  });
  const hashed = type === 'email_change_new' ? tokenHash(validateEmail(newEmail), otp) : hash;
  const verificationType = type.startsWith('email_change') ? 'email_change' : type;
  return json({
    ...userJson(user, await loadIdentities(service.pool, user.id)),
    action_link: service.mailer
      .confirmationUrl(template, hashed, redirectTo)
      .replace(/type=[^&]+/, `type=${verificationType}`),
    email_otp: otp,
    hashed_token: hashed,
    verification_type: verificationType,
    redirect_to: redirectTo,
  });
}

export async function invite(service: AuthService, req: AuthRequest): Promise<Reply> {
  const email = stringParam(req.body, 'email');
  const data = objectParam(req.body, 'data') ?? {};
  const address = validateEmail(email);
  const redirectTo = redirectTarget(service, req);
  const user = await transaction(service, async (db) => {
    let user = await findUserByEmail(db, address, true);
    if (user?.email_confirmed_at) {
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    }
    if (!user) user = await createUser(db, { email: address, userMetadata: data });
    await audit(db, user, 'user_invited', req.ip, { user_email: address }, 'team');
    await sendInvite(service, db, user, redirectTo);
    return (await findUserById(db, user.id)) ?? user;
  });
  return json(await fullUserJson(service.pool, user));
}
