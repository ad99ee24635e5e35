/** A sliding-window counter: at most `limit` events per `windowMs`. */

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Events allowed in one window. */
  readonly limit: number;
  /** Window length in milliseconds. */
  readonly windowMs: number;
}

/** Returns `true` and counts the event when it is within the limit, else `false`. */
export type RateLimiter = () => boolean;

// Monotonic, and captured at start-up: a plugin changing `Date` or `performance` cannot reset the window.
const now = performance.now.bind(performance);

/** A limiter remembering at most `limit` timestamps. */
export function createRateLimiter({ limit, windowMs }: RateLimiterOptions): RateLimiter {
  const times: number[] = [];
  return () => {
    const at = now();
    while (times.length > 0 && at - (times[0] ?? at) >= windowMs) times.shift();
    if (times.length >= limit) return false;
    times.push(at);
    return true;
  };
}
