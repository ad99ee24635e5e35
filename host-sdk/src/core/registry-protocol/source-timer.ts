/**
 * The clock and timers registry sources measure deadlines and unavailability with. Injectable, so
 * tests move time themselves instead of sleeping; the default is the platform's own.
 */

/** A clock with one-shot timers (the platform's `Date.now`, `setTimeout` and `clearTimeout` fit). */
export interface RegistryTimer {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `callback` once after `ms` milliseconds; returns a handle for {@link RegistryTimer.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface PlatformTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The platform's clock and timers. Node's timer handles are unref'd: a pending deadline never
 * keeps a process alive that has nothing else to do.
 */
export const systemRegistryTimer: RegistryTimer = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const handle = (globalThis as unknown as PlatformTimers).setTimeout(callback, ms);
    (handle as { unref?: () => void } | null)?.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    (globalThis as unknown as PlatformTimers).clearTimeout(handle);
  },
};

/** Thrown by {@link withDeadline} when the deadline passed first. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
}

/**
 * Runs `task` with a signal that aborts after `ms` milliseconds on `timer`, or when `signal`
 * (the caller's) aborts. When the deadline passes first the result rejects with
 * {@link DeadlineExceeded} at once, whether or not the task notices the abort; a caller's abort
 * rejects with whatever the task rejects with.
 */
export function withDeadline<T>(task: (signal: AbortSignal) => Promise<T>, ms: number, timer: RegistryTimer, signal?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const onCallerAbort = (): void => controller.abort();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', onCallerAbort, { once: true });
  let handle: unknown;
  const deadline = new Promise<never>((_resolve, reject) => {
    handle = timer.setTimeout(() => {
      reject(new DeadlineExceeded(`no answer within ${ms / 1000} s`));
      controller.abort();
    }, ms);
  });
  const work = task(controller.signal);
  // The loser of the race must not become an unhandled rejection.
  work.catch(() => undefined);
  deadline.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => {
    timer.clearTimeout(handle);
    signal?.removeEventListener('abort', onCallerAbort);
  });
}

/**
 * Resolves after `ms` milliseconds on `timer`, or at once when `signal` aborts (never rejects):
 * the pause of a reconnecting loop that must end promptly when its owner closes it.
 */
export function delayUnlessAborted(ms: number, signal: AbortSignal, timer: RegistryTimer = systemRegistryTimer): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      timer.clearTimeout(handle);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const handle = timer.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
