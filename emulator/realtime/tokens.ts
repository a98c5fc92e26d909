// Tokens checked as realtime checks them (supabase/realtime lib/realtime_web/channels/auth/
// jwt_verification.ex and channels_authorization.ex): HS256 with the project secret or ES256/RS256 with a
// published key, `exp` in the future, and both `role` and `exp` present. The reasons are realtime's,
// prefixed with the error code its channel logs them under.
import * as jose from 'jose';
import { publicKeyFor, type SigningKeys } from '../keys.ts';
import { errorReason, type RealtimeErrorCode } from './codes.ts';

export type Claims = Record<string, unknown> & { role: string; exp: number };

export type TokenCheck =
  { ok: true; claims: Claims } | { ok: false; kind: 'expired' | 'invalid'; reason: string; message: string };

function failure(kind: 'expired' | 'invalid', code: RealtimeErrorCode, message: string): TokenCheck {
  return { ok: false, kind, reason: errorReason(code, message), message };
}

export async function checkToken(keys: SigningKeys, token: unknown, now = Date.now()): Promise<TokenCheck> {
  if (typeof token !== 'string') {
    return failure('invalid', 'MalformedJWT', 'The token provided is not a valid JWT');
  }
  const cleaned = token.replace(/\s/g, '');
  let header: jose.ProtectedHeaderParameters;
  let peeked: jose.JWTPayload;
  try {
    header = jose.decodeProtectedHeader(cleaned);
    peeked = jose.decodeJwt(cleaned);
  } catch {
    return failure('invalid', 'MalformedJWT', 'The token provided is not a valid JWT');
  }
  const key = header.alg === 'HS256' ? keys.hmacSecret : publicKeyFor(keys, header);
  if (!key) {
    return failure(
      'invalid',
      'JwtSignerError',
      typeof header.kid === 'string'
        ? `Failed to generate JWT signer for key ID (kid) "${header.kid}", check your JWT secret or JWKS configuration`
        : 'Failed to generate JWT signer, check your JWT secret or JWKS configuration',
    );
  }
  try {
    // Expiry is checked below with realtime's wording, so jose is told the clock is before any `exp`.
    await jose.jwtVerify(cleaned, key, { algorithms: [String(header.alg)], currentDate: new Date(0) });
  } catch {
    return failure('invalid', 'JwtSignatureError', 'Failed to validate JWT signature');
  }
  const nowSeconds = Math.floor(now / 1000);
  const exp = typeof peeked.exp === 'number' ? Math.round(peeked.exp) : undefined;
  if (exp !== undefined && exp <= nowSeconds) {
    return failure('expired', 'InvalidJWTToken', `Token has expired ${nowSeconds - exp} seconds ago`);
  }
  if (typeof peeked.role !== 'string' || exp === undefined) {
    return failure('invalid', 'InvalidJWTToken', 'Fields `role` and `exp` are required in JWT');
  }
  return { ok: true, claims: { ...peeked, role: peeked.role, exp } };
}
