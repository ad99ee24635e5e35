import type { Middleware } from 'koa';
import { RegistryError } from '../errors/registry-error.js';

/** Options of {@link intakeRateLimit}. */
export interface IntakeRateLimitOptions {
  /** Requests one client address may make per window (default 120). */
  readonly limit?: number;
  /** The window in milliseconds (default 60 000). */
  readonly windowMs?: number;
  /** The clock. */
  readonly now: () => Date;
}

interface Window {
  start: number;
  count: number;
}

// Windows that ended are dropped once the map grows past this, so a flood of addresses cannot
// grow memory without bound.
const SWEEP_ABOVE_ADDRESSES = 10_000;

/**
 * A fixed-window request limit per client address (`ctx.ip`, which honours `X-Forwarded-For` only
 * when the Koa app sets `proxy`), answering 429 `rate_limited` with `Retry-After`. The default, 120
 * reports a minute, is far above what one launcher sends (the client drops duplicates within 60
 * seconds) and low enough that one address cannot pause a plugin's rollout in seconds. Kept in
 * memory, per process.
 */
export function intakeRateLimit(options: IntakeRateLimitOptions): Middleware {
  const limit = options.limit ?? 120;
  const windowMs = options.windowMs ?? 60_000;
  const windows = new Map<string, Window>();
  return async function limitTelemetryIntake(ctx, next) {
    const now = options.now().getTime();
    if (windows.size > SWEEP_ABOVE_ADDRESSES) {
      for (const [address, window] of windows) if (now - window.start >= windowMs) windows.delete(address);
    }
    const address = ctx.ip;
    let window = windows.get(address);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      windows.set(address, window);
    }
    window.count += 1;
    if (window.count > limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      throw new RegistryError('rate_limited', `Too many reports from this address; try again in ${retryAfterSeconds} s`, {
        'Retry-After': String(retryAfterSeconds),
      });
    }
    await next();
  };
}
