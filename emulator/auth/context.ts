// What every auth handler receives: the parsed request and the service's dependencies.
import type { IncomingHttpHeaders } from 'node:http';
import type pg from 'pg';
import type { AuthSettings } from '../config.ts';
import type { SigningKeys } from '../keys.ts';
import { inTransaction } from '../lib/transaction.ts';
import { type AuthError, badRequest, tooManyRequests, unprocessable, weakPassword } from './errors.ts';
import type { Mailer } from './mailer.ts';
import type { AuthLimiters } from './rate-limit.ts';
import { resolveRedirect } from './redirects.ts';
import type { GrantContext, TokenSettings } from './sessions.ts';
import type { Queryable } from './users.ts';

export interface AuthService {
  settings: AuthSettings;
  pool: pg.Pool;
  keys: SigningKeys;
  tokens: TokenSettings;
  mailer: Mailer;
  limiters: AuthLimiters;
  apiExternalUrl: string;
}

export interface AuthRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  ip: string;
  userAgent: string;
  bearer: string | undefined;
  body: Record<string, unknown>;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

export function grantContext(req: AuthRequest): GrantContext {
  return { ip: req.ip, userAgent: req.userAgent };
}

/** Reads an optional string field; a value of another type is a JSON decoding error, as in Go. */
export function stringParam(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type string`,
    );
  }
  return value;
}

export function objectParam(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field .${key} of type map[string]interface {}`,
    );
  }
  return value as Record<string, unknown>;
}

export function boolParam(body: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = body[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${key} of type bool`,
    );
  }
  return value;
}

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

export function checkPasswordStrength(settings: AuthSettings, password: string): void {
  if ([...password].length > 72) {
    throw badRequest('validation_failed', 'Password cannot be longer than 72 characters');
  }
  if ([...password].length < settings.minimumPasswordLength) {
    throw weakPassword(`Password should be at least ${settings.minimumPasswordLength} characters.`, [
      'length',
    ]);
  }
}

export function validatePkceParams(challenge: string, method: string): 'pkce' | 'implicit' {
  if ((challenge === '') !== (method === '')) {
    throw badRequest('validation_failed', 'PKCE flow requires code_challenge_method and code_challenge');
  }
  if (challenge === '') return 'implicit';
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters');
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw badRequest(
      'validation_failed',
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  if (!['s256', 'plain'].includes(method.toLowerCase())) {
    throw badRequest('validation_failed', 'code challenge method not supported');
  }
  return 'pkce';
}

export function redirectTarget(service: AuthService, req: AuthRequest, fromBody = ''): string {
  const requested = req.query.get('redirect_to') ?? (fromBody || null);
  const referer = typeof req.headers.referer === 'string' ? req.headers.referer : undefined;
  return resolveRedirect(
    service.settings.siteUrl,
    service.settings.additionalRedirectUrls,
    requested,
    referer,
  );
}

/**
 * GoTrue's limiter of an endpoint, per client address (internal/api/apilimiter/apilimiter.go,
 * middleware.go performRateLimiting): 429 `over_request_rate_limit` once its bucket is empty.
 */
export function enforceRateLimit(
  service: AuthService,
  req: AuthRequest,
  limiter: 'token' | 'otp' | 'verify' | 'anonymous' | 'mfaChallenge' | 'mfaVerify',
): void {
  if (!service.limiters[limiter].allow(req.ip)) {
    throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
  }
}

export function transaction<T>(service: AuthService, fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(service.pool, fn);
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

export async function createFlowState(
  db: Queryable,
  userId: string,
  authenticationMethod: string,
  challenge: string,
  method: string,
): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
        created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, gen_random_uuid()::text, $2, $3, 'email', now(), now(), $4)`,
    [userId, method.toLowerCase(), challenge, authenticationMethod],
  );
}

export function unsupported(message: string): AuthError {
  return unprocessable('validation_failed', message);
}
