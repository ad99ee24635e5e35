/** Rebuilds the `Error` a plugin sees from a {@link WireError} (decisions section 3). */
import type { BridgeError } from './plugin-api.js';
import { isRecord, withoutUndefined } from './guards.js';

/** The `Error` every failed bridge call rejects with. */
class RevivedBridgeError extends Error implements BridgeError {
  override readonly name = 'BridgeError' as const;
  // `declare`: no own property unless the wire error had one (`'code' in error` stays meaningful).
  declare readonly code?: string;
  declare readonly details?: Readonly<Record<string, unknown>>;
}

/** A failure (a local one such as bad arguments, or a host's) in the shape of a bridge rejection. */
export function bridgeError(message: string, code?: string, details?: Readonly<Record<string, unknown>>): BridgeError {
  return Object.assign(new RevivedBridgeError(message), withoutUndefined({ code, details }));
}

/** Refuses an argument unless `valid`: throws a {@link bridgeError} with code `INVALID_ARGUMENT`. */
export function requireArgument(valid: boolean, message: string): asserts valid {
  if (!valid) throw bridgeError(message, 'INVALID_ARGUMENT');
}

/**
 * An `Error` whose `message` is exactly the wire message and which carries `code` and `details`
 * when present. A malformed wire error (the host is not trusted to send good shapes) still gives
 * an `Error` with a generic message.
 */
export function reviveError(error: unknown): BridgeError {
  if (!isRecord(error) || typeof error.message !== 'string') return bridgeError('The host answered with a malformed error');
  const { code, details } = error;
  return bridgeError(error.message, typeof code === 'string' ? code : undefined, isRecord(details) ? details : undefined);
}
