/** The timers the dev loop waits with; tests pass a manual clock instead of sleeping. */
export interface Clock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's own timers. */
export const systemClock: Clock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How long the dev loop waits after the last change before it builds (specification: 400 ms). */
export const QUIET_PERIOD_MS = 400;

/** Options of {@link createQuietPeriod}. */
export interface QuietPeriodOptions {
  /** Called once the changes stop: `quietMs` after the last {@link QuietPeriod.touch}. */
  readonly onSettled: () => void;
  /** Default {@link QUIET_PERIOD_MS}. */
  readonly quietMs?: number;
  /** Default {@link systemClock}. */
  readonly clock?: Clock;
}

/** Coalesces a burst of changes into one call. */
export interface QuietPeriod {
  /** A change happened: restarts the wait. */
  touch(): void;
  /** True while a wait is running (a change has not settled yet). */
  readonly waiting: boolean;
  /** Drops a running wait without calling `onSettled`. */
  cancel(): void;
}

/**
 * Calls `onSettled` once `quietMs` have passed without a {@link QuietPeriod.touch}: an editor that
 * saves several files, or writes one in steps, gives one build rather than one per write.
 */
export function createQuietPeriod(options: QuietPeriodOptions): QuietPeriod {
  const clock = options.clock ?? systemClock;
  const quietMs = options.quietMs ?? QUIET_PERIOD_MS;
  let timer: unknown;
  let waiting = false;
  const cancel = (): void => {
    if (waiting) clock.clearTimeout(timer);
    waiting = false;
  };
  return {
    touch() {
      cancel();
      waiting = true;
      timer = clock.setTimeout(() => {
        waiting = false;
        options.onSettled();
      }, quietMs);
    },
    get waiting() {
      return waiting;
    },
    cancel,
  };
}
