import type { BackendLogger } from '../../http/logger.js';
import { createFailureLog } from './failure-log.js';
import type { ForwardedPluginErrorReport, PluginErrorReport } from './plugin-error-report.js';

/** Reports waiting to be looked at; more are dropped (and counted) until the queue drains. */
export const MAX_PENDING_REPORTS = 100;
/** Reports being sent at once; a hanging store holds at most this many sockets. */
export const MAX_CONCURRENT_SENDS = 4;

/** Options of {@link createReportForwarder}. */
export interface ReportForwarderOptions {
  /**
   * Decides whether a report goes out and builds what is sent, or `null` to drop it. Called one
   * report at a time, in arrival order.
   */
  readonly prepare: (report: PluginErrorReport) => Promise<ForwardedPluginErrorReport | null>;
  /** Sends one report; rejects when it did not reach the store. */
  readonly send: (report: ForwardedPluginErrorReport) => Promise<void>;
  readonly logger: BackendLogger;
  readonly maxPending?: number;
  readonly maxConcurrent?: number;
}

/** Counters since the forwarder was created. */
export interface ReportForwarderStats {
  /** Reached the store. */
  readonly forwarded: number;
  /** Not sent by decision: telemetry off, no store, or that id@version not installed. */
  readonly skipped: number;
  /** Sending failed (store down, slow or refusing). */
  readonly failed: number;
  /** Refused because the queue was full. */
  readonly overflowed: number;
}

/** Takes reports without ever making the caller wait; see {@link createReportForwarder}. */
export interface ReportForwarder {
  /** Queues a report; false when the queue was full and it was dropped. Never throws, never waits. */
  submit(report: PluginErrorReport): boolean;
  /** Resolves when nothing is queued, being prepared or being sent (for tests and shutdown). */
  idle(): Promise<void>;
  stats(): ReportForwarderStats;
}

/**
 * A bounded, fire-and-forget pipeline: reports queue up (at most `maxPending`), are prepared one
 * at a time in arrival order, and are sent at most `maxConcurrent` at a time. A flood or a store
 * that hangs therefore costs a fixed amount of memory and sockets, and what does not fit is
 * dropped: losing a telemetry report is harmless, stalling the launcher is not. Failures are
 * logged once per run, not per report.
 */
export function createReportForwarder(options: ReportForwarderOptions): ReportForwarder {
  const maxPending = options.maxPending ?? MAX_PENDING_REPORTS;
  const maxConcurrent = options.maxConcurrent ?? MAX_CONCURRENT_SENDS;
  const pending: PluginErrorReport[] = [];
  const counts = { forwarded: 0, skipped: 0, failed: 0, overflowed: 0 };
  const sendFailures = createFailureLog(options.logger, 'Forwarding plugin error reports to the store');
  const prepareFailures = createFailureLog(options.logger, 'Checking plugin error reports before forwarding');
  const overflow = createFailureLog(options.logger, `Queueing plugin error reports (at most ${maxPending} wait)`);
  let preparing = false;
  let sending = 0;
  let idleWaiters: (() => void)[] = [];

  const isIdle = (): boolean => pending.length === 0 && !preparing && sending === 0;

  function wakeIdleWaiters(): void {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function send(report: ForwardedPluginErrorReport): void {
    sending += 1;
    // Started inside a promise so that even a synchronous throw becomes a counted failure.
    void Promise.resolve(report)
      .then(options.send)
      .then(
        () => {
          counts.forwarded += 1;
          sendFailures.succeeded();
        },
        (error: unknown) => {
          counts.failed += 1;
          sendFailures.failed(error);
        },
      )
      .finally(() => {
        sending -= 1;
        pump();
      });
  }

  // Prepares the next report when a sending slot is free, so a hanging store stops the
  // pipeline at the queue (where the bound applies) instead of piling up prepared reports.
  function pump(): void {
    if (preparing || sending >= maxConcurrent) return;
    const report = pending.shift();
    if (report === undefined) {
      wakeIdleWaiters();
      return;
    }
    preparing = true;
    void Promise.resolve(report)
      .then(options.prepare)
      .then(
        (outgoing) => {
          prepareFailures.succeeded();
          return outgoing;
        },
        (error: unknown) => {
          prepareFailures.failed(error);
          return null;
        },
      )
      .then((outgoing) => {
        preparing = false;
        if (outgoing) send(outgoing);
        else counts.skipped += 1;
        pump();
      });
  }

  return {
    submit(report) {
      if (pending.length >= maxPending) {
        counts.overflowed += 1;
        overflow.failed(new Error('the queue is full; the store is slow or reports arrive too fast'));
        return false;
      }
      overflow.succeeded();
      pending.push(report);
      pump();
      return true;
    },
    idle() {
      return isIdle() ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
    stats: () => ({ ...counts }),
  };
}
