/** Converting between {@link WireResult}s and what the plugin sees (values, thrown errors). */
import type { WireError, WireResult } from '../core/bridge/protocol.js';
import { bridgeError, reviveError } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { describeThrown, isRecord, withoutUndefined } from './guards.js';

// Captured at start-up: a plugin replacing the global later cannot change what the runtime sends.
const clone = globalThis.structuredClone.bind(globalThis);

/** Why `value` cannot be sent to the host (structured clone refuses a function, a DOM node), or `undefined` when it can. */
function unsendable(value: unknown): string | undefined {
  try {
    clone(value);
    return undefined;
  } catch (error) {
    return describeThrown(error);
  }
}

/**
 * The value of a host answer, or throws the rebuilt error. Anything that is not a WireResult
 * throws too, so a broken host cannot make a call resolve with garbage.
 */
export function unwrapResult(result: unknown): unknown {
  if (isRecord(result) && result.ok === true) return result.value;
  throw isRecord(result) && result.ok === false ? reviveError(result.error) : bridgeError('The host answered with a malformed result');
}

/** A WireError describing something a plugin threw: its message, and its `code`/`details` when it set them. */
function toWireError(thrown: unknown): WireError {
  const message = describeThrown(thrown);
  try {
    const { code, details } = isRecord(thrown) ? thrown : {};
    return withoutUndefined({
      message,
      code: typeof code === 'string' ? code : undefined,
      details: isRecord(details) && unsendable(details) === undefined ? details : undefined,
    });
  } catch {
    // A throwing `code` or `details` getter: the message alone.
    return { message };
  }
}

/** An error answer. */
export function errorResult(thrown: unknown): WireResult<never> {
  return { ok: false, error: toWireError(thrown) };
}

/**
 * Runs a plugin function the host asked for (a registered method, a hook handler) and answers with
 * what it returned, or with what it threw, or with an error when the value cannot be sent (penpal
 * would otherwise fail the reply with a penpal error instead of a WireResult). A failure is also
 * reported to `errors` as this plugin's error, from `source`.
 *
 * @param what - the value, for the error text: `The result of greet` cannot be sent to the host: ...
 */
export async function answerFor<T>(run: () => T | Promise<T>, what: string, errors: CaughtErrors, source: string): Promise<WireResult<T>> {
  let failure: unknown;
  try {
    const value = await run();
    const why = unsendable(value);
    if (why === undefined) return { ok: true, value };
    failure = `${what} cannot be sent to the host: ${why}`;
  } catch (error) {
    failure = error;
  }
  errors.fromHandler(failure, source);
  return errorResult(failure);
}
