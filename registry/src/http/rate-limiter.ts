/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Hits allowed per key within one window. */
  readonly limit: number;
  /** The sliding window in milliseconds. */
  readonly windowMs: number;
  /** The clock (the registry context's, so tests can move it). */
  readonly now: () => Date;
}

// Keys nobody hit for a whole window are dropped once the map grows past this, so a stream of
// made-up usernames cannot grow memory without bound.
const SWEEP_ABOVE_KEYS = 10_000;

/**
 * An in-memory sliding-window counter per key (a username and client address pair, a client
 * address). It counts what the caller reports with {@link RateLimiter.hit} (failed logins,
 * registrations) and says how long a key must wait once it has used up its hits. Kept in the
 * process: the telemetry intake limit uses it (per instance by design). The limits that guard
 * accounts (logins, registrations, device codes) use `StoredRateLimiter`, shared by every instance.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly options: RateLimiterOptions) {}

  /** Milliseconds until `key` may try again; 0 when it may try now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.options.limit) return 0;
    const oldest = recent[recent.length - this.options.limit] ?? 0;
    return Math.max(1, oldest + this.options.windowMs - this.options.now().getTime());
  }

  /** Records one attempt of `key`. */
  hit(key: string): void {
    const recent = this.recent(key);
    recent.push(this.options.now().getTime());
    // Only the newest `limit` hits matter for the answer.
    if (recent.length > this.options.limit) recent.splice(0, recent.length - this.options.limit);
    this.hits.set(key, recent);
    if (this.hits.size > SWEEP_ABOVE_KEYS) this.sweep();
  }

  /** Forgets `key` (after a successful login, its username and address pair starts afresh). */
  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.options.now().getTime() - this.options.windowMs;
    return (this.hits.get(key) ?? []).filter((time) => time > since);
  }

  private sweep(): void {
    for (const key of [...this.hits.keys()]) {
      if (this.recent(key).length === 0) this.hits.delete(key);
    }
  }
}
