/** Running plugin callbacks (listeners, menu actions, stream handlers) without letting them break the runtime. */
import type { CaughtErrors } from './error-reporter.js';

/**
 * Calls `fn`. Whatever it throws goes to `errors.fromCallback` (reported to the host with its
 * message and stack, then shown in the console as uncaught) and the runtime's caller carries on.
 * A returned promise that rejects is left alone: it becomes an `unhandledrejection`, which keeps
 * its reason in every engine and is reported from there.
 *
 * @param source - the callback, for the report: `on('file-drop') listener`.
 */
export function callIsolated(fn: () => unknown, errors: CaughtErrors, source: string): void {
  try {
    fn();
  } catch (error) {
    errors.fromCallback(error, source);
  }
}
