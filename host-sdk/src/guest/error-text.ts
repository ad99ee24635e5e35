/** What an error report says: message, stack and source of a thrown value, clipped for the channel. */
import { describeThrown, isRecord, withoutUndefined } from './guards.js';

/** Longest message, source or resource sent; the host only needs enough to show and group it. */
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

/** The report of something the plugin threw (`TypeError: x is not a function` and its stack), found at `source`. */
export function reportOf(thrown: unknown, source?: string): RuntimeErrorReport {
  let stack: unknown;
  try {
    stack = isRecord(thrown) ? thrown.stack : undefined;
  } catch {
    // A throwing `stack` getter: no stack.
  }
  return {
    message: describeThrown(thrown, true) || 'Unknown error',
    source,
    // A string or a plain object has no stack.
    stack: typeof stack === 'string' && stack.trim() ? stack : undefined,
  };
}

/**
 * The report of an uncaught error as the `error` event gives it. One with no error object and the
 * generic "Script error." (or nothing) for a message is one whose text the engine hid.
 */
export function reportOfErrorEvent({ error, message, filename, lineno, colno }: ErrorEvent): RuntimeErrorReport {
  const source = filename ? `${filename}:${lineno}:${colno}` : undefined;
  if (error !== undefined && error !== null) return reportOf(error, source);
  if (/^((uncaught )?script error\.?)?$/i.test(typeof message === 'string' ? message.trim() : '')) return { message: HIDDEN_ERROR_MESSAGE, hidden: true };
  return { message, source };
}

/**
 * A report (or any record of strings) as it is sent: clipped to what the channel carries (stacks
 * are longer than the rest), without the fields that are `undefined`.
 */
export function clipReport<T extends object>(report: T): T {
  return Object.fromEntries(
    Object.entries(withoutUndefined(report)).map(([field, value]) => [
      field,
      typeof value === 'string' ? clip(value, field === 'stack' ? MAX_STACK_LENGTH : MAX_MESSAGE_LENGTH) : value,
    ]),
  ) as T;
}
