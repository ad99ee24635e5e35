/** Converting between {@link WireResult}s and what the plugin sees (values, thrown errors). */
import type { WireError, WireResult } from '../core/bridge/protocol.js';
import { bridgeError, reviveError } from './bridge-error.js';
import { describeThrown, isRecord } from './guards.js';

// Captured at start-up: a plugin replacing the global later cannot change what the runtime sends.
const clone = globalThis.structuredClone.bind(globalThis);

/**
 * The value of a host answer, or throws the rebuilt error. Anything that is not a WireResult
 * throws too, so a broken host cannot make a call resolve with garbage.
 */
export function unwrapResult(result: unknown): unknown {
  if (isRecord(result) && result.ok === true) return result.value;
  if (isRecord(result) && result.ok === false) throw reviveError(result.error);
  throw bridgeError('The host answered with a malformed result');
}

/** A WireError describing something a plugin threw: its message, and its `code`/`details` when it set them. */
export function toWireError(thrown: unknown): WireError {
  const message = describeThrown(thrown);
  if (!isRecord(thrown)) return { message };
  let code: unknown;
  let details: unknown;
  try {
    code = thrown.code;
    details = thrown.details;
  } catch {
    return { message };
  }
  return {
    message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(isRecord(details) && canCross(details) ? { details: details } : {}),
  };
}

/** Whether a value survives structured clone, i.e. can be sent to the host. */
function canCross(value: unknown): boolean {
  try {
    clone(value);
    return true;
  } catch {
    return false;
  }
}

/** An error answer. */
export function errorResult(thrown: unknown): WireResult<never> {
  return { ok: false, error: toWireError(thrown) };
}

/**
 * A success answer, or an error answer when the value cannot be sent (a function, a DOM node):
 * penpal would otherwise fail the reply with a penpal error instead of a WireResult.
 */
export function valueResult<T>(value: T, what: string): WireResult<T> {
  try {
    clone(value);
  } catch (error) {
    return errorResult(new Error(`${what} cannot be sent to the host: ${describeThrown(error)}`));
  }
  return { ok: true, value };
}
