// Fixed-window request counters, per client IP, for the limits of [auth.rate_limit].

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly windowMs: number) {}

  /** Counts one event for `key`; false once more than `limit` happened in the current window. */
  allow(key: string, limit: number): boolean {
    const now = Date.now();
    const window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.set(key, { start: now, count: 1 });
      if (this.windows.size > 50_000) this.prune(now);
      return limit > 0;
    }
    window.count += 1;
    return window.count <= limit;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows)
      if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}

/**
 * Token buckets per key, as GoTrue's tollbooth limiters work for MFA challenge and verify: `perMinute`
 * tokens flow in each minute, up to `burst` saved up.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  allow(key: string, perMinute: number, burst: number): boolean {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 60_000) * perMinute);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 50_000) this.prune(now, perMinute, burst);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private prune(now: number, perMinute: number, burst: number): void {
    // A bucket that has refilled completely is the same as no bucket.
    for (const [key, bucket] of this.buckets)
      if (bucket.tokens + ((now - bucket.at) / 60_000) * perMinute >= burst) this.buckets.delete(key);
  }
}
