// Signed URL tokens as storage-api mints them (supabase/storage src/storage/object.ts signObjectUrl,
// signUploadObjectUrl, verifyObjectSignature; src/internal/auth/jwt.ts): HS256 JWTs signed with the
// project's JWT secret, carrying the `bucket/name` they are good for and a scope, so a download token
// cannot upload and a token for one object opens no other.
import * as jose from 'jose';
import type { SigningKeys } from '../keys.ts';
import { errors } from './errors.ts';

export type SignedScope = 'download' | 'upload';

export interface SignedToken {
  url: string;
  exp: number;
  owner?: string;
  upsert?: boolean;
  /** A download token for a transformed image: ImageRenderer's segments, `height:100,width:100`. */
  transformations?: string;
}

/** storage-api caps a numeric expiry so the resulting `exp` stays a valid date. */
const MAX_EXPIRES_IN = 60 * 60 * 24 * 365 * 100;

export function checkExpiresIn(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw errors.validation('body/expiresIn must be number');
  }
  const seconds = Math.floor(value);
  if (seconds < 1 || seconds > MAX_EXPIRES_IN) throw errors.invalidParameter('expiresIn');
  return seconds;
}

export async function signToken(
  keys: SigningKeys,
  scope: SignedScope,
  url: string,
  expiresIn: number,
  extra: { owner?: string; upsert?: boolean; transformations?: string; format?: string } = {},
): Promise<string> {
  const payload: jose.JWTPayload = { url, scope };
  if (scope === 'upload') {
    if (extra.owner !== undefined) payload.owner = extra.owner;
    payload.upsert = Boolean(extra.upsert);
  } else {
    // storage-api's signObjectUrl keeps these claims only when they are not empty.
    if (extra.transformations) payload.transformations = extra.transformations;
    if (extra.format) payload.format = extra.format;
  }
  return new jose.SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
    .sign(keys.hmacSecret);
}

function hasScope(payload: jose.JWTPayload, scope: SignedScope): boolean {
  if (scope === 'upload')
    return payload.scope === 'upload' || (payload.scope === undefined && 'upsert' in payload);
  // Tokens minted before scopes existed carry neither a scope nor `upsert`.
  return payload.scope === 'download' || (payload.scope === undefined && !('upsert' in payload));
}

/** Verifies a signed-URL token for `bucket/name`: signature, scope, object binding, expiry. */
export async function verifyToken(
  keys: SigningKeys,
  token: string,
  scope: SignedScope,
  bucket: string,
  name: string,
): Promise<SignedToken> {
  let payload: jose.JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(token, keys.hmacSecret, { algorithms: ['HS256'] }));
  } catch (error) {
    throw errors.invalidJwt(error instanceof Error ? error.message : undefined);
  }
  if (!hasScope(payload, scope)) throw errors.invalidSignature(`Token is not scoped for ${scope}`);
  if (payload.url !== `${bucket}/${name}`) throw errors.invalidSignature();
  const exp = typeof payload.exp === 'number' ? payload.exp : 0;
  if (exp * 1000 < Date.now()) throw errors.expiredSignature();
  return {
    url: payload.url,
    exp,
    owner: typeof payload.owner === 'string' ? payload.owner : undefined,
    upsert: payload.upsert === true,
    transformations: typeof payload.transformations === 'string' ? payload.transformations : undefined,
  };
}
