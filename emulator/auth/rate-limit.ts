// GoTrue's request limits (supabase/auth internal/api/apilimiter/apilimiter.go and
// internal/ratelimit/interval.go): token buckets per client address for the endpoints, and one
// fixed-interval counter for the project's emails.

/**
 * Token buckets per key, as tollbooth's limiters work in GoTrue: `perSecond` tokens flow in
 * continuously, at most `burst` are saved up, and a request takes one. A new key starts full.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  allow(key: string): boolean {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 50_000) this.prune(now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private prune(now: number): void {
    // A bucket that has refilled completely is the same as no bucket.
    for (const [key, bucket] of this.buckets)
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(key);
  }
}

/**
 * GoTrue's IntervalLimiter, used for the emails sent per hour: `events` per interval, the count
 * reset at each interval's start (a fixed window, not a bucket).
 */
export class IntervalLimiter {
  private start = Date.now();
  private count = 0;

  constructor(private readonly intervalMs: number) {}

  allow(events: number): boolean {
    const now = Date.now();
    const passed = Math.floor((now - this.start) / this.intervalMs);
    if (passed > 0) {
      this.start += passed * this.intervalMs;
      this.count = 0;
    }
    if (this.count >= events) return false;
    this.count += 1;
    return true;
  }
}

export interface RateLimitSettings {
  tokenRefresh: number;
  signInSignUps: number;
  tokenVerifications: number;
  anonymousUsers: number;
  /** MFA challenges and verifies per minute. */
  mfa: number;
}

/** One limiter per GoTrue limiter field, named after the endpoints it guards. */
export interface AuthLimiters {
  /** POST /token, every grant (RATE_LIMIT_TOKEN_REFRESH per 5 minutes, burst 30). */
  token: TokenBuckets;
  /** /signup, /otp, /magiclink, /recover, /resend, PUT /user (RATE_LIMIT_OTP, which the CLI's
   * `sign_in_sign_ups` sets, per 5 minutes, burst 30). */
  otp: TokenBuckets;
  /** GET and POST /verify (RATE_LIMIT_VERIFY per 5 minutes, burst 30). */
  verify: TokenBuckets;
  /** Anonymous sign-ups (RATE_LIMIT_ANONYMOUS_USERS per hour, burst as many). */
  anonymous: TokenBuckets;
  mfaChallenge: TokenBuckets;
  mfaVerify: TokenBuckets;
  /** Emails sent per hour, project-wide. */
  email: IntervalLimiter;
}

const FIVE_MINUTES = 5 * 60;

export function createLimiters(limits: RateLimitSettings): AuthLimiters {
  return {
    token: new TokenBuckets(limits.tokenRefresh / FIVE_MINUTES, 30),
    otp: new TokenBuckets(limits.signInSignUps / FIVE_MINUTES, 30),
    verify: new TokenBuckets(limits.tokenVerifications / FIVE_MINUTES, 30),
    anonymous: new TokenBuckets(limits.anonymousUsers / 3600, limits.anonymousUsers),
    // GoTrue's burst is 30 at its default of 15 a minute; an override here keeps that ratio.
    mfaChallenge: new TokenBuckets(limits.mfa / 60, limits.mfa * 2),
    mfaVerify: new TokenBuckets(limits.mfa / 60, limits.mfa * 2),
    email: new IntervalLimiter(60 * 60 * 1000),
  };
}
