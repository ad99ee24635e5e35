/**
 * Reports the frame's errors to the host, which turns them into `runtime-error` events and
 * `plugin_runtime_error` / `plugin_load_failed` telemetry (without the text). Reports are
 * rate-limited here so a plugin stuck in an error loop cannot flood the channel.
 *
 * Errors the runtime catches itself (a listener, a menu item's `onClick`, a stream handler, a
 * registered method, a hook handler) are reported directly, with their message and stack: the
 * `error` event cannot be relied on for them, because WebKit hides the text of every uncaught error
 * in a sandboxed frame ("Script error.", no error object). Uncaught errors still go through the
 * `error` event; one whose text the engine hid is reported as hidden, so the vendor knows that
 * something failed and why there is no text. Unhandled rejections keep their reason in every engine.
 */
import type { HostAccess } from './host-session.js';
import { isRecord } from './guards.js';
import type { RateLimiter } from './rate-limiter.js';
import { clip, clipReport, reportOf, reportOfErrorEvent, type RuntimeErrorReport } from './error-text.js';

/** The CustomEvent the launcher's injected loader script dispatches on `window`. */
export const REPORT_EVENT = 'plugin-host:report';

type Report = ({ readonly kind: 'runtime-error' } & RuntimeErrorReport) | { readonly kind: 'load-failed'; readonly resource: string };

/** Where the runtime hands the errors of the plugin code it calls. */
export interface CaughtErrors {
  /**
   * A callback nobody awaits threw (an `on` listener, a menu item's `onClick`, a stream handler):
   * reported, then shown in the console as an uncaught error, as if the plugin had thrown it from
   * an event listener. `source` names the callback, such as `on('file-drop') listener`.
   */
  fromCallback(thrown: unknown, source: string): void;
  /**
   * A handler whose error also goes back as an answer (a registered method, a hook handler) threw:
   * reported only; the caller gets the error and decides what to show.
   */
  fromHandler(thrown: unknown, source: string): void;
}

// Captured at start-up so a plugin replacing the globals cannot swallow its own errors through us.
const showError: ((error: unknown) => void) | undefined = typeof globalThis.reportError === 'function' ? globalThis.reportError.bind(globalThis) : undefined;
const enqueue = globalThis.queueMicrotask.bind(globalThis);

/** The report a `plugin-host:report` detail asks for, or `undefined` when it is malformed. */
function reportFromDetail(detail: unknown): Report | undefined {
  if (!isRecord(detail)) return undefined;
  if (detail.kind === 'load-failed' && typeof detail.resource === 'string') {
    return { kind: 'load-failed', resource: detail.resource };
  }
  if (detail.kind === 'runtime-error' && typeof detail.message === 'string') {
    const { source, stack } = detail;
    return {
      kind: 'runtime-error',
      message: detail.message,
      ...(typeof source === 'string' && source !== '' ? { source } : {}),
      ...(typeof stack === 'string' && stack !== '' ? { stack } : {}),
    };
  }
  return undefined;
}

/** Sends reports to the host, at most as many as `allow` lets through. */
function senderFor(host: HostAccess, allow: RateLimiter): (report: Report) => void {
  return (report) => {
    if (!allow()) return;
    void host()
      .then((remote) => {
        if (report.kind === 'load-failed') return remote.reportLoadFailure({ resource: clip(report.resource) });
        const { kind: _kind, ...runtimeError } = report;
        return remote.reportError(clipReport(runtimeError));
      })
      // Reporting is best effort: a closed connection must not cause a new error to report.
      .catch(() => undefined);
  };
}

/** Shows an error in the console as uncaught: `reportError`, or a rethrow in a microtask of its own. */
function show(thrown: unknown): void {
  if (showError) {
    showError(thrown);
    return;
  }
  enqueue(() => {
    throw thrown;
  });
}

/**
 * Reports caught errors without listening anywhere: for inline plugins, whose window is the
 * launcher's (its uncaught errors are the launcher's to handle).
 */
export function reportCaughtErrors(host: HostAccess, allow: RateLimiter): CaughtErrors {
  const send = senderFor(host, allow);
  const fromHandler = (thrown: unknown, source: string): void => send({ kind: 'runtime-error', ...reportOf(thrown, source) });
  return {
    fromHandler,
    fromCallback(thrown, source) {
      fromHandler(thrown, source);
      show(thrown);
    },
  };
}

/**
 * Listens on `target` for the rest of the frame's life, sends what it sees within `allow`, and
 * returns where the runtime hands the errors it catches.
 */
export function watchErrors(target: Window, host: HostAccess, allow: RateLimiter): CaughtErrors {
  const send = senderFor(host, allow);
  // Errors already reported directly, so their echo in the `error` event is not reported again.
  const reported = new WeakSet<object>();
  // Set while an already reported error is being shown: the `error` event `reportError` fires
  // (synchronously, and in WebKit without the error object) is that error's echo.
  let echoing = false;

  target.addEventListener('error', (event) => {
    // Resource load failures are plain `Event`s (and do not bubble to window); the loader
    // script reports those through REPORT_EVENT.
    if (!(event instanceof ErrorEvent)) return;
    if (echoing) {
      // Only the first event is the echo: one thrown by a plugin's own `error` listener is new.
      echoing = false;
      return;
    }
    if (typeof event.error === 'object' && event.error !== null && reported.has(event.error)) return;
    send({ kind: 'runtime-error', ...reportOfErrorEvent(event) });
  });

  target.addEventListener('unhandledrejection', (event) => {
    send({ kind: 'runtime-error', ...reportOf(event.reason, 'unhandledrejection') });
  });

  target.addEventListener(REPORT_EVENT, (event) => {
    const report = event instanceof CustomEvent ? reportFromDetail(event.detail) : undefined;
    if (report) send(report);
  });

  const fromHandler = (thrown: unknown, source: string): void => send({ kind: 'runtime-error', ...reportOf(thrown, source) });
  return {
    fromHandler,
    fromCallback(thrown, source) {
      fromHandler(thrown, source);
      // Without `reportError` the echo comes later, in a microtask: `reported` recognises it in
      // the engines that show the error object.
      if (typeof thrown === 'object' && thrown !== null) reported.add(thrown);
      echoing = showError !== undefined;
      try {
        show(thrown);
      } finally {
        echoing = false;
      }
    },
  };
}
