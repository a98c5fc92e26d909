// TOTP (RFC 6238) over HOTP (RFC 4226), with the parameters GoTrue fixes for MFA: SHA-1, six digits,
// 30-second steps, one step of clock skew either way (supabase/auth internal/api/mfa.go, which uses
// github.com/pquerna/otp). Secrets are RFC 4648 base32 without padding, as authenticator apps expect.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes base32, ignoring case, spaces and trailing padding; null when it is not base32. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Buffer.from(bytes);
}

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  period: number;
  digits: number;
  algorithm: TotpAlgorithm;
  /** How many steps before and after the current one are also accepted. */
  skew: number;
}

export const GOTRUE_TOTP: TotpOptions = { period: 30, digits: 6, algorithm: 'sha1', skew: 1 };

/** RFC 4226 section 5.3: HMAC over the 8-byte big-endian counter, dynamic truncation, modulo 10^digits. */
export function hotp(
  key: Uint8Array,
  counter: number,
  digits = 6,
  algorithm: TotpAlgorithm = 'sha1',
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step (RFC 6238's T) that `at` falls in. */
export function timeStep(at: number, period = GOTRUE_TOTP.period): number {
  return Math.floor(at / 1000 / period);
}

export function totp(key: Uint8Array, at: number, options: Partial<TotpOptions> = {}): string {
  const { period, digits, algorithm } = { ...GOTRUE_TOTP, ...options };
  return hotp(key, timeStep(at, period), digits, algorithm);
}

/**
 * The time step whose code `code` is, if it is the current step's or within the skew; null otherwise.
 * Returning the step (not just true) lets the caller refuse a code that was already used.
 */
export function matchTotp(
  key: Uint8Array,
  code: string,
  at: number,
  options: Partial<TotpOptions> = {},
): number | null {
  const { period, digits, algorithm, skew } = { ...GOTRUE_TOTP, ...options };
  if (code.length !== digits || !/^\d+$/.test(code)) return null;
  const current = timeStep(at, period);
  // The same order as pquerna/otp: the current step first, then outwards.
  const steps = [current];
  for (let i = 1; i <= skew; i++) steps.push(current + i, current - i);
  for (const step of steps) {
    if (step < 0) continue;
    const expected = Buffer.from(hotp(key, step, digits, algorithm));
    if (timingSafeEqual(expected, Buffer.from(code))) return step;
  }
  return null;
}

/** A new secret as pquerna/otp makes it by default: 20 random bytes, base32 without padding. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

// Go's url.URL escaping (net/url shouldEscape), so the URI is the one GoTrue would hand out.
function goEscape(text: string, keep: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(char) || keep.includes(char)) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The Key URI Format of Google Authenticator, as pquerna/otp writes it: the label is `issuer:account`,
 * query keys sorted, values path-escaped (spaces as %20).
 */
export function otpauthUri(issuer: string, accountName: string, secret: string): string {
  const query: Array<[string, string]> = [
    ['algorithm', 'SHA1'],
    ['digits', '6'],
    ['issuer', issuer],
    ['period', '30'],
    ['secret', secret],
  ];
  const path = goEscape(`/${issuer}:${accountName}`, '$&+,/:;=@');
  const search = query.map(([k, v]) => `${k}=${goEscape(v, '$&+:=@')}`).join('&');
  return `otpauth://totp${path}?${search}`;
}
