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
import { isName, isRecord } from './guards.js';
import type { RateLimiter } from './rate-limiter.js';
import { clipReport, reportOf, reportOfErrorEvent, type RuntimeErrorReport } from './error-text.js';

/** The CustomEvent the launcher's injected loader script dispatches on `window`. */
export const REPORT_EVENT = 'plugin-host:report';

/** A runtime error (for `reportError`), or a resource of the frame that failed to load (for `reportLoadFailure`). */
type Report = RuntimeErrorReport | { readonly resource: string };

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

// Captured at start-up so a plugin replacing the global cannot swallow its own errors through us.
// Every supported engine has `reportError` (decisions 11); without it an error is reported, not shown.
const showError: ((error: unknown) => void) | undefined = globalThis.reportError?.bind(globalThis);

/** The report a `plugin-host:report` detail asks for, or `undefined` when it is malformed. */
function reportFromDetail(detail: unknown): Report | undefined {
  if (!isRecord(detail)) return undefined;
  const { kind, resource, message, source, stack } = detail;
  if (kind === 'load-failed' && typeof resource === 'string') return { resource };
  if (kind === 'runtime-error' && typeof message === 'string') {
    return { message, source: isName(source) ? source : undefined, stack: isName(stack) ? stack : undefined };
  }
  return undefined;
}

/** Sends reports to the host, clipped, at most as many as `allow` lets through. */
function senderFor(host: HostAccess, allow: RateLimiter): (report: Report) => void {
  return (report) => {
    if (!allow()) return;
    // Reporting is best effort: a closed connection must not cause a new error to report.
    host(...(['resource' in report ? 'reportLoadFailure' : 'reportError', clipReport(report)] as Parameters<HostAccess>)).catch(() => undefined);
  };
}

/** Reports through `send`; `show` shows a callback's error in the console as uncaught. */
function caughtErrors(send: (report: Report) => void, show: (thrown: unknown) => void): CaughtErrors {
  const fromHandler = (thrown: unknown, source: string): void => send(reportOf(thrown, source));
  return {
    fromHandler,
    fromCallback(thrown, source) {
      fromHandler(thrown, source);
      show(thrown);
    },
  };
}

/**
 * Reports caught errors without listening anywhere: for inline plugins, whose window is the
 * launcher's (its uncaught errors are the launcher's to handle).
 */
export function reportCaughtErrors(host: HostAccess, allow: RateLimiter): CaughtErrors {
  return caughtErrors(senderFor(host, allow), (thrown) => showError?.(thrown));
}

/**
 * Listens on `target` for the rest of the frame's life, sends what it sees within `allow`, and
 * returns where the runtime hands the errors it catches.
 */
export function watchErrors(target: Window, host: HostAccess, allow: RateLimiter): CaughtErrors {
  const send = senderFor(host, allow);
  // Set while an already reported error is shown: the `error` event `reportError` fires
  // (synchronously, and in WebKit without the error object) is that error's echo.
  let echoing = false;

  target.addEventListener('error', (event) => {
    // Resource load failures are plain `Event`s (and do not bubble to window); the loader
    // script reports those through REPORT_EVENT.
    if (!(event instanceof ErrorEvent)) return;
    // Only the first event is the echo: one thrown by a plugin's own `error` listener is new.
    if (echoing) echoing = false;
    else send(reportOfErrorEvent(event));
  });

  target.addEventListener('unhandledrejection', (event) => send(reportOf(event.reason, 'unhandledrejection')));

  target.addEventListener(REPORT_EVENT, (event) => {
    // The detail is checked field by field; which kind of event carries it does not matter.
    const report = reportFromDetail((event as Partial<CustomEvent>).detail);
    if (report) send(report);
  });

  return caughtErrors(send, (thrown) => {
    echoing = true;
    try {
      showError?.(thrown);
    } finally {
      echoing = false;
    }
  });
}
