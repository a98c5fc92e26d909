// What runs before a handler (supabase/auth internal/api/middleware.go): the per-address limiters.
import type { AuthRequest, AuthService } from './context.ts';
import { tooManyRequests } from './errors.ts';

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
