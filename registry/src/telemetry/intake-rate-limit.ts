import type { Middleware } from 'koa';
import { RegistryError } from '../errors/registry-error.js';
import { clientAddressOf } from '../http/client-address.js';
import { RateLimiter } from '../http/rate-limiter.js';

/** Options of {@link intakeRateLimit}. */
export interface IntakeRateLimitOptions {
  /** Requests one client address may make per window (default 120). */
  readonly limit?: number;
  /** The window in milliseconds (default 60 000). */
  readonly windowMs?: number;
  /** The clock. */
  readonly now: () => Date;
}

/**
 * A sliding-window request limit per client address (the registry's one {@link RateLimiter}; the
 * address is `clientAddressOf`, which believes `X-Forwarded-For` only from trusted proxies),
 * answering 429 `rate_limited` with `Retry-After`. The default, 120 reports a minute, is far above
 * what one launcher sends (the client drops duplicates within 60 seconds). It bounds the cost of a
 * flood; it is not what protects the automatic rollout pause, which counts distinct reporter
 * networks (see `report-intake.ts`), so reports from one address never add up to a pause however
 * slowly they are sent. Kept in memory, per registry instance, by design: it is the one limit on
 * the hot path of every launcher's reports, and a flood spread over N instances behind a load
 * balancer costs at most N times the limit, which it is still meant to bound.
 */
export function intakeRateLimit(options: IntakeRateLimitOptions): Middleware {
  const limiter = new RateLimiter({ limit: options.limit ?? 120, windowMs: options.windowMs ?? 60_000, now: options.now });
  return async function limitTelemetryIntake(ctx, next) {
    const address = clientAddressOf(ctx);
    const waitMs = limiter.retryAfterMs(address);
    if (waitMs > 0) {
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new RegistryError('rate_limited', `Too many reports from this address; try again in ${retryAfterSeconds} s`, {
        'Retry-After': String(retryAfterSeconds),
      });
    }
    limiter.hit(address);
    await next();
  };
}
