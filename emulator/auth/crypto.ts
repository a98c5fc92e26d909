// Token material as GoTrue makes it (supabase/auth internal/crypto).
import { createHash, randomInt, randomBytes, timingSafeEqual } from 'node:crypto';

/** A numeric one-time code, e.g. the 6 digits of an email OTP. */
export function generateOtp(length: number): string {
  let otp = '';
  for (let i = 0; i < length; i++) otp += String(randomInt(0, 10));
  return otp;
}

/** hex(sha224(email + otp)): the hash emailed as {{ .TokenHash }} and looked up on verify. */
export function tokenHash(emailOrPhone: string, otp: string): string {
  return createHash('sha224')
    .update(emailOrPhone + otp)
    .digest('hex');
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Refresh tokens are 12 random alphanumeric characters in GoTrue's v1 algorithm. */
export function secureAlphanumeric(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    // 248 = 62 * 4: reject the top of the range so every character is equally likely.
    if (byte < 248) out += ALPHANUMERIC[byte % 62];
  }
  return out.length === length ? out : secureAlphanumeric(length);
}

/** RFC 7636 S256 check, in constant time. */
export function pkceMatches(challenge: string, method: string, verifier: string): boolean {
  const expected =
    method.toLowerCase() === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const CODE_CHALLENGE_PATTERN = /^[a-zA-Z._~0-9-]+$/;
