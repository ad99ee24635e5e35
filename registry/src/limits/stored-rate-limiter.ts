import { createHash } from 'node:crypto';
import type { RateLimitRepository } from './rate-limit-repository.js';

/** A sliding-window limit of attempts per key, as the auth routes use it. */
export interface AttemptLimiter {
  /** Milliseconds until `key` may try again; 0 when it may try now. */
  retryAfterMs(key: string): Promise<number>;
  /** Records one attempt of `key`. */
  hit(key: string): Promise<void>;
  /** Forgets `key` (after a successful login, its username and address pair starts afresh). */
  reset(key: string): Promise<void>;
}

/** Options of {@link StoredRateLimiter}. */
export interface StoredRateLimiterOptions {
  /** The limit's name in storage (`login`, `register`, ...); each bucket counts on its own. */
  readonly bucket: string;
  /** Hits allowed per key within one window. */
  readonly limit: number;
  /** The sliding window in milliseconds. */
  readonly windowMs: number;
  /** The clock (the registry context's, so tests can move it). */
  readonly now: () => Date;
}

/**
 * The sliding-window counter of `RateLimiter`, kept in the store's database instead of the
 * process: behind a load balancer every registry instance sees the same hits, so ten wrong
 * passwords are ten whichever instances they reached. Keys are stored as their SHA-256. Checking
 * and counting are two steps, so attempts racing on several instances can overshoot the limit by
 * the number racing, never more.
 */
export class StoredRateLimiter implements AttemptLimiter {
  constructor(
    private readonly repository: RateLimitRepository,
    private readonly options: StoredRateLimiterOptions,
  ) {}

  async retryAfterMs(key: string): Promise<number> {
    const { limit, windowMs, bucket } = this.options;
    const now = this.options.now().getTime();
    const hits = await this.repository.recentHits(bucket, digestOf(key), now - windowMs, limit);
    if (hits.length < limit) return 0;
    // The oldest hit that still counts decides when a slot frees.
    const oldest = hits[limit - 1] ?? now;
    return Math.max(1, oldest + windowMs - now);
  }

  async hit(key: string): Promise<void> {
    const now = this.options.now().getTime();
    await this.repository.addHit(this.options.bucket, digestOf(key), now, now - this.options.windowMs);
  }

  async reset(key: string): Promise<void> {
    await this.repository.clearHits(this.options.bucket, digestOf(key));
  }
}

function digestOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('base64url');
}
