// Multi-factor authentication with authenticator apps (TOTP): POST /factors, POST /factors/{id}/challenge,
// POST /factors/{id}/verify, DELETE /factors/{id} (supabase/auth internal/api/mfa.go, models/factor.go,
// models/challenge.go). Phone and WebAuthn factors answer as disabled, as the CLI configures them.
import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { type AuthRequest, type AuthService, type Reply, json, transaction } from './context.ts';
import { enforceRateLimit } from './middleware.ts';
import { stringParam } from './params.ts';
import { AuthError, badRequest, forbidden, notFound, unprocessable } from './errors.ts';
import {
  type Caller,
  type SessionRow,
  AMR_METHOD_OF_FACTOR,
  authenticate,
  downgradeSessionsOfFactor,
  elevateSession,
  normaliseIp,
} from './sessions.ts';
import { base32Decode, matchTotp, newTotpSecret, otpauthUri } from './totp.ts';
import { type FactorRow, type Queryable, audit, findUserById, isUuid, loadFactors } from './users.ts';

/** GoTrue's MFA_FACTOR_EXPIRY_DURATION: unverified factors never challenged are swept after this. */
const UNVERIFIED_FACTOR_LIFETIME_SECONDS = 300;
/** GoTrue's MFA_MAX_VERIFIED_FACTORS (not exposed by the CLI). */
const MAX_VERIFIED_FACTORS = 10;

type FactorType = 'totp' | 'phone' | 'webauthn';
const FACTOR_TYPE_NAMES: Record<string, string> = { totp: 'TOTP', phone: 'Phone', webauthn: 'WebAuthn' };
const isFactorType = (value: string): value is FactorType => value in FACTOR_TYPE_NAMES;

interface MfaCaller extends Caller {
  session: SessionRow;
}

/** requireAuthentication + requireNotAnonymous, and the session every /factors handler needs. */
async function mfaCaller(service: AuthService, req: AuthRequest, action: string): Promise<MfaCaller> {
  const caller = await authenticate(service.pool, service.keys, req.bearer);
  if (caller.claims.is_anonymous === true) {
    throw forbidden('no_authorization', 'Anonymous user not allowed to perform these actions');
  }
  const { session } = caller;
  if (!session) {
    throw new AuthError(
      500,
      'unexpected_failure',
      `A valid session and a registered user are required to ${action}`,
    );
  }
  return { ...caller, session };
}

/** GoTrue's loadFactor middleware: only the caller's own factors exist. */
async function ownedFactor(
  db: Queryable,
  userId: string,
  factorId: string,
  lock = false,
): Promise<FactorRow> {
  if (!isUuid(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
  const { rows } = await db.query<FactorRow>(
    `select * from auth.mfa_factors where id = $1 and user_id = $2${lock ? ' for update' : ''}`,
    [factorId, userId],
  );
  const factor = rows[0];
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return factor;
}

function enrollDisabled(factorType: FactorType): AuthError {
  const name = FACTOR_TYPE_NAMES[factorType] ?? factorType;
  return unprocessable(`mfa_${factorType}_enroll_not_enabled`, `MFA enroll is disabled for ${name}`);
}

/** Only TOTP can be on here; phone (no SMS) and WebAuthn answer as the CLI's defaults make them. */
function checkVerifyEnabled(service: AuthService, factorType: string): void {
  const name = FACTOR_TYPE_NAMES[factorType];
  if (!name || !isFactorType(factorType)) {
    throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  }
  if (factorType !== 'totp' || !service.settings.mfa.totpVerifyEnabled) {
    throw unprocessable(`mfa_${factorType}_verify_not_enabled`, `MFA verification is disabled for ${name}`);
  }
}

export async function enrollFactor(service: AuthService, req: AuthRequest): Promise<Reply> {
  const { user, session } = await mfaCaller(service, req, 'enroll a factor');
  const factorType = stringParam(req.body, 'factor_type');
  const friendlyName = stringParam(req.body, 'friendly_name');
  const requestedIssuer = stringParam(req.body, 'issuer');
  stringParam(req.body, 'phone');
  if (factorType === 'phone' || factorType === 'webauthn') throw enrollDisabled(factorType);
  if (factorType !== 'totp') {
    throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  }
  if (!service.settings.mfa.totpEnrollEnabled) throw enrollDisabled('totp');
  let issuer = requestedIssuer;
  if (issuer === '') {
    try {
      issuer = new URL(service.settings.siteUrl).host;
    } catch {
      throw new AuthError(500, 'unexpected_failure', 'site url is improperly formatted');
    }
  }
  if (!user.email) throw new AuthError(500, 'unexpected_failure', 'Error generating QR Code');

  const secret = newTotpSecret();
  const uri = otpauthUri(issuer, user.email, secret);
  const factorId = randomUUID();
  await transaction(service, async (db) => {
    // Serialises enrolments of one user, so two at once cannot both pass the limits below.
    await findUserById(db, user.id, true);
    await db.query(
      `delete from auth.mfa_factors f
        where f.status <> 'verified'
          and not exists (select 1 from auth.mfa_challenges c where c.factor_id = f.id)
          and f.created_at + make_interval(secs => $1) < now()`,
      [UNVERIFIED_FACTOR_LIFETIME_SECONDS],
    );
    await checkFactorLimits(service, db, user.id, friendlyName, session);
    await db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [factorId, user.id, friendlyName, secret],
    );
    await audit(db, user, 'factor_in_progress', req.ip, { factor_id: factorId }, 'factor');
  });
  return json({
    id: factorId,
    type: 'totp',
    friendly_name: friendlyName,
    totp: { qr_code: qrCodeSvg(uri), secret, uri },
  });
}

/** GoTrue's validateFactors. Note that an empty friendly_name conflicts with another empty one. */
async function checkFactorLimits(
  service: AuthService,
  db: Queryable,
  userId: string,
  friendlyName: string,
  session: SessionRow,
): Promise<void> {
  const factors = await loadFactors(db, userId);
  if (factors.some((f) => (f.friendly_name ?? '') === friendlyName)) {
    throw unprocessable(
      'mfa_factor_name_conflict',
      `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
    );
  }
  const verified = factors.filter((f) => f.status === 'verified').length;
  if (factors.length >= service.settings.mfa.maxEnrolledFactors || verified >= MAX_VERIFIED_FACTORS) {
    throw unprocessable(
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  }
  if (verified > 0 && session.aal !== 'aal2') {
    throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
  }
}

/**
 * The QR code as GoTrue draws it (boombuler/barcode at level H, goqrsvg with 3-pixel modules and a
 * four-module quiet zone): raw SVG, which auth-js turns into a `data:image/svg+xml;utf-8,` URI.
 */
function qrCodeSvg(text: string): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'H' });
  const block = 3;
  const quiet = 4 * block;
  const width = modules.size * block + 2 * quiet;
  const rects: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      const fill = modules.get(row, col) ? 'black' : 'white';
      rects.push(
        `<rect x="${quiet + col * block}" y="${quiet + row * block}" width="${block}" height="${block}" style="fill:${fill};stroke:none" />`,
      );
    }
  }
  return [
    '<?xml version="1.0"?>',
    `<svg width="${width}" height="${width}" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">`,
    ...rects,
    '</svg>',
    '',
  ].join('\n');
}

interface ChallengeRow {
  id: string;
  created_at: Date;
  verified_at: Date | null;
  same_ip: boolean;
}

export async function challengeFactor(
  service: AuthService,
  req: AuthRequest,
  factorId: string,
): Promise<Reply> {
  const { user } = await mfaCaller(service, req, 'challenge a factor');
  const factor = await ownedFactor(service.pool, user.id, factorId);
  enforceRateLimit(service, req, 'mfaChallenge');
  checkVerifyEnabled(service, factor.factor_type);
  const challenge = await transaction(service, async (db) => {
    const { rows } = await db.query<{ id: string; created_at: Date }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
       values (gen_random_uuid(), $1, now(), $2::inet) returning id, created_at`,
      [factor.id, challengeIp(req)],
    );
    await db.query('update auth.mfa_factors set last_challenged_at = clock_timestamp() where id = $1', [
      factor.id,
    ]);
    await audit(
      db,
      user,
      'challenge_created',
      req.ip,
      { factor_id: factor.id, factor_status: factor.status },
      'factor',
    );
    const row = rows[0];
    if (!row) throw new Error('insert into auth.mfa_challenges returned no row');
    return row;
  });
  return json({
    id: challenge.id,
    type: factor.factor_type,
    expires_at: expiresAt(service, challenge.created_at),
  });
}

function challengeIp(req: AuthRequest): string {
  return normaliseIp(req.ip) ?? '0.0.0.0';
}

function expiresAt(service: AuthService, createdAt: Date): number {
  return Math.floor(createdAt.getTime() / 1000) + service.settings.mfa.challengeExpiry;
}

type VerifyOutcome = { session: Record<string, unknown> } | { expired: string };

export async function verifyFactor(service: AuthService, req: AuthRequest, factorId: string): Promise<Reply> {
  const { user, session } = await mfaCaller(service, req, 'verify a factor');
  const factor = await ownedFactor(service.pool, user.id, factorId);
  enforceRateLimit(service, req, 'mfaVerify');
  const challengeId = uuidParam(req.body, 'challenge_id');
  const code = stringParam(req.body, 'code');
  if (code === '') throw badRequest('validation_failed', 'Code needs to be non-empty');
  checkVerifyEnabled(service, factor.factor_type);

  const outcome = await transaction(service, async (db): Promise<VerifyOutcome> => {
    const locked = await ownedFactor(db, user.id, factor.id, true);
    const { rows } = await db.query<ChallengeRow>(
      `select id, created_at, verified_at, ip_address = $3::inet as same_ip
         from auth.mfa_challenges where id = $1 and factor_id = $2 for update`,
      [challengeId, locked.id, challengeIp(req)],
    );
    const challenge = rows[0];
    if (!challenge) {
      throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    }
    if (challenge.verified_at || !challenge.same_ip) {
      throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    }
    if (Date.now() > challenge.created_at.getTime() + service.settings.mfa.challengeExpiry * 1000) {
      await db.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
      return { expired: challenge.id };
    }
    // GoTrue checks the code alone (internal/api/mfa.go, verifyTOTPFactor: totp.ValidateCustom with one
    // step of skew) and remembers no used code: within its time the same code opens another challenge.
    // What it refuses is a challenge verified twice (validateChallenge, above).
    const key = base32Decode(locked.secret ?? '');
    const step = key && key.length > 0 ? matchTotp(key, code, Date.now()) : null;
    if (step === null) {
      throw unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
    }
    await audit(
      db,
      user,
      'verification_attempted',
      req.ip,
      { factor_id: locked.id, challenge_id: challenge.id, factor_type: locked.factor_type },
      'factor',
    );
    await db.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challenge.id]);
    if (locked.status !== 'verified') {
      await db.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [
        locked.id,
      ]);
    }
    const current = (await findUserById(db, user.id)) ?? user;
    const method = AMR_METHOD_OF_FACTOR[locked.factor_type] ?? 'totp';
    const tokens = await elevateSession(db, service.tokens, current, session.id, locked.id, method, req.ip);
    await db.query(
      `delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = $2`,
      [user.id, locked.factor_type],
    );
    return { session: tokens };
  });
  if ('expired' in outcome) {
    throw unprocessable(
      'mfa_challenge_expired',
      `MFA challenge ${outcome.expired} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  return json(outcome.session);
}

/** A uuid.UUID field as Go decodes it: absent is the nil UUID, anything else must parse. */
function uuidParam(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) return '00000000-0000-0000-0000-000000000000';
  if (typeof value !== 'string' || !isUuid(value)) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: uuid: incorrect UUID length ${typeof value === 'string' ? value.length : 0} in string ${JSON.stringify(String(value))}`,
    );
  }
  return value;
}

export async function unenrollFactor(
  service: AuthService,
  req: AuthRequest,
  factorId: string,
): Promise<Reply> {
  const { user, session } = await mfaCaller(service, req, 'unenroll a factor');
  const factor = await ownedFactor(service.pool, user.id, factorId);
  if (factor.status === 'verified' && session.aal !== 'aal2') {
    throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await transaction(service, async (db) => {
    await db.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    await audit(
      db,
      user,
      'factor_unenrolled',
      req.ip,
      { factor_id: factor.id, factor_status: factor.status, session_id: session.id },
      'factor',
    );
    await downgradeSessionsOfFactor(db, factor);
  });
  return json({ id: factor.id });
}
