/**
 * Reports the frame's uncaught errors, unhandled rejections and failed resource loads to the
 * host, which turns them into `plugin_runtime_error` / `plugin_load_failed` telemetry. Reports are
 * rate-limited here so a plugin stuck in an error loop cannot flood the channel.
 */
import type { HostAccess } from './host-session.js';
import { describeThrown, isRecord } from './guards.js';
import type { RateLimiter } from './rate-limiter.js';

/** The CustomEvent the launcher's injected loader script dispatches on `window`. */
export const REPORT_EVENT = 'plugin-host:report';

/** Longest message sent; the host only needs enough to show and group it. */
const MAX_MESSAGE_LENGTH = 1000;

type Report =
  | { readonly kind: 'runtime-error'; readonly message: string; readonly source?: string }
  | { readonly kind: 'load-failed'; readonly resource: string };

function clip(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

/** `TypeError: x is not a function` for errors, the text of anything else. */
function describeUncaught(thrown: unknown): string {
  try {
    if (isRecord(thrown) && typeof thrown['name'] === 'string' && typeof thrown['message'] === 'string') {
      return `${thrown['name']}: ${thrown['message']}`;
    }
  } catch {
    // Fall through to the plain description.
  }
  return describeThrown(thrown);
}

/** The report a `plugin-host:report` detail asks for, or `undefined` when it is malformed. */
function reportFromDetail(detail: unknown): Report | undefined {
  if (!isRecord(detail)) return undefined;
  if (detail['kind'] === 'load-failed' && typeof detail['resource'] === 'string') {
    return { kind: 'load-failed', resource: detail['resource'] };
  }
  if (detail['kind'] === 'runtime-error' && typeof detail['message'] === 'string') {
    const source = detail['source'];
    return { kind: 'runtime-error', message: detail['message'], ...(typeof source === 'string' ? { source } : {}) };
  }
  return undefined;
}

/** Listens on `target` for the rest of the frame's life and sends what it sees, within `allow`. */
export function watchErrors(target: Window, host: HostAccess, allow: RateLimiter): void {
  const send = (report: Report): void => {
    if (!allow()) return;
    void host()
      .then((remote) =>
        report.kind === 'load-failed'
          ? remote.reportLoadFailure({ resource: clip(report.resource) })
          : remote.reportError({ message: clip(report.message), ...(report.source !== undefined ? { source: clip(report.source) } : {}) }),
      )
      // Reporting is best effort: a closed connection must not cause a new error to report.
      .catch(() => undefined);
  };

  target.addEventListener('error', (event) => {
    // Resource load failures are plain `Event`s (and do not bubble to window); the loader
    // script reports those through REPORT_EVENT.
    if (!(event instanceof ErrorEvent)) return;
    const message = event.error !== undefined && event.error !== null ? describeUncaught(event.error) : event.message;
    const source = event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : undefined;
    send({ kind: 'runtime-error', message: message || 'Unknown error', ...(source !== undefined ? { source } : {}) });
  });

  target.addEventListener('unhandledrejection', (event) => {
    send({ kind: 'runtime-error', message: describeUncaught(event.reason), source: 'unhandledrejection' });
  });

  target.addEventListener(REPORT_EVENT, (event) => {
    const report = event instanceof CustomEvent ? reportFromDetail(event.detail) : undefined;
    if (report) send(report);
  });
}
