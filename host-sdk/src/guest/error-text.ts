/** What an error report says: message, stack and source of a thrown value, clipped for the channel. */
import { describeThrown, isRecord } from './guards.js';

/** Longest message or source sent; the host only needs enough to show and group it. */
export const MAX_MESSAGE_LENGTH = 1000;

/** Longest stack sent: a few dozen frames, enough to find the line. */
export const MAX_STACK_LENGTH = 4000;

/**
 * The message of an uncaught error whose text the engine hid. In a sandboxed (opaque-origin) frame,
 * WebKit hands `error` listeners `"Script error."` and no error object for the errors of inline
 * scripts (and of code they queued: timers, microtasks); every engine does so for a script from
 * another origin loaded without CORS, which a plugin's files are not (see `frame/script-cors.ts`).
 */
export const HIDDEN_ERROR_MESSAGE = "An uncaught error in the plugin's own code; this browser engine hides its text (WebKit does so in sandboxed frames)";

/** An error report as it is sent to the host's `reportError`. */
export interface RuntimeErrorReport {
  readonly message: string;
  /** Where it happened: `file:line:column`, `unhandledrejection`, or the callback (`on('file-drop') listener`). */
  readonly source?: string;
  /** The error's stack, when the engine gave one. */
  readonly stack?: string;
  /** The engine hid the error's text; `message` says so. */
  readonly hidden?: true;
}

/** Cuts `text` to `max` characters, marking the cut. */
export function clip(text: string, max = MAX_MESSAGE_LENGTH): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `TypeError: x is not a function` for errors, the text of anything else. Never throws. */
export function describeError(thrown: unknown): string {
  try {
    if (isRecord(thrown) && typeof thrown.name === 'string' && typeof thrown.message === 'string') {
      return `${thrown.name}: ${thrown.message}`;
    }
  } catch {
    // Fall through to the plain description.
  }
  return describeThrown(thrown);
}

/** The stack of a thrown error, or `undefined` when it has none (a string, a plain object). Never throws. */
export function stackOf(thrown: unknown): string | undefined {
  try {
    const stack = isRecord(thrown) ? thrown.stack : undefined;
    return typeof stack === 'string' && stack.trim() !== '' ? stack : undefined;
  } catch {
    return undefined;
  }
}

/** The report of something the plugin threw, found at `source`. */
export function reportOf(thrown: unknown, source?: string): RuntimeErrorReport {
  const stack = stackOf(thrown);
  return {
    message: describeError(thrown) || 'Unknown error',
    ...(source !== undefined ? { source } : {}),
    ...(stack !== undefined ? { stack } : {}),
  };
}

/**
 * Whether an uncaught error's text was hidden by the engine: no error object, and the generic
 * "Script error." (or nothing) for a message.
 */
export function isHiddenByEngine(event: ErrorEvent): boolean {
  if (event.error !== undefined && event.error !== null) return false;
  const message = typeof event.message === 'string' ? event.message.trim() : '';
  return message === '' || /^(uncaught )?script error\.?$/i.test(message);
}

/** The report of an uncaught error as the `error` event gives it. */
export function reportOfErrorEvent(event: ErrorEvent): RuntimeErrorReport {
  if (isHiddenByEngine(event)) return { message: HIDDEN_ERROR_MESSAGE, hidden: true };
  const source = event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : undefined;
  if (event.error !== undefined && event.error !== null) return reportOf(event.error, source);
  return { message: event.message || 'Unknown error', ...(source !== undefined ? { source } : {}) };
}

/** The report, clipped to what the channel carries. */
export function clipReport(report: RuntimeErrorReport): RuntimeErrorReport {
  return {
    message: clip(report.message),
    ...(report.source !== undefined ? { source: clip(report.source) } : {}),
    ...(report.stack !== undefined ? { stack: clip(report.stack, MAX_STACK_LENGTH) } : {}),
    ...(report.hidden ? { hidden: true as const } : {}),
  };
}
