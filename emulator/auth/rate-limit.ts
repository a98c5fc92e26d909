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
