import type { BackendLogger } from '../../http/logger.js';

/** Logs the first failure of a repeated operation and the recovery, not every failure between. */
export interface FailureLog {
  /** Records one failure; only the first of a run is logged. */
  failed(error: unknown): void;
  /** Records a success; ends a run of failures with one line saying how many were lost. */
  succeeded(): void;
}

/** The message of an error and, for `fetch failed`, the network cause (`ECONNREFUSED`, ...). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail ? `${error.message} (${detail})` : error.message;
}

/**
 * A failure log for `what` (e.g. "Forwarding plugin error reports"). A store that is down for an
 * hour while plugins keep failing would otherwise write one line per report, burying the log.
 */
export function createFailureLog(logger: BackendLogger, what: string): FailureLog {
  let lost = 0;
  // The callers run detached from any request; a vendor logger that throws must not turn into
  // an unhandled rejection or stall them.
  const write = (line: () => void): void => {
    try {
      line();
    } catch {
      // Nowhere left to report it.
    }
  };
  return {
    failed(error) {
      lost += 1;
      if (lost === 1) write(() => logger.warn(`${what} failed; later failures are counted, not logged, until it works again`, { error: describeError(error) }));
    },
    succeeded() {
      if (lost > 0) write(() => logger.info(`${what} works again after ${lost} failure${lost === 1 ? '' : 's'}`));
      lost = 0;
    },
  };
}
