// What runs before a handler (supabase/auth internal/api/middleware.go): the per-address limiters.
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthRequest, AuthService } from './context.ts';
import { tooManyRequests } from './errors.ts';

/**
 * Whom GoTrue counts a request against (middleware.go, performRateLimitingWithHeader): the first
 * comma-separated value of the configured rate-limit header. With no header configured, or none
 * (or only a blank first value) in the request, GoTrue cannot tell clients apart and limits nothing.
 * The hosted platform's `Sb-Forwarded-For` (GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED) is off in the
 * CLI's stack and not emulated.
 */
export function rateLimitKey(header: string, headers: IncomingHttpHeaders): string | undefined {
  if (header === '') return undefined;
  const raw = headers[header.toLowerCase()];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  return value?.split(',', 1)[0]?.trim() || undefined;
}

/**
 * GoTrue's limiter of an endpoint, per client as `rateLimitKey` names it (internal/api/apilimiter,
 * middleware.go performRateLimiting): 429 `over_request_rate_limit` once its bucket is empty.
 */
export function enforceRateLimit(
  service: AuthService,
  req: AuthRequest,
  limiter: 'token' | 'otp' | 'verify' | 'anonymous' | 'mfaChallenge' | 'mfaVerify',
): void {
  const key = rateLimitKey(service.settings.rateLimit.header, req.headers);
  if (key === undefined) return;
  if (!service.limiters[limiter].allow(key)) {
    throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
  }
}
