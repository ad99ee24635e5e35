/** Rebuilds the `Error` a plugin sees from a {@link WireError} (decisions section 3). */
import type { WireError } from '../core/bridge/protocol.js';
import type { BridgeError } from './plugin-api.js';
import { isRecord } from './guards.js';

/** The `Error` every failed bridge call rejects with. */
class RevivedBridgeError extends Error implements BridgeError {
  override readonly name = 'BridgeError' as const;
  // `declare`: no own property unless the wire error had one (`'code' in error` stays meaningful).
  declare readonly code?: string;
  declare readonly details?: Readonly<Record<string, unknown>>;

  constructor(error: WireError) {
    super(error.message);
    if (error.code !== undefined) this.code = error.code;
    if (error.details !== undefined) this.details = error.details;
  }
}

/**
 * An `Error` whose `message` is exactly the wire message and which carries `code` and `details`
 * when present. A malformed wire error (the host is not trusted to send good shapes) still gives
 * an `Error` with a generic message.
 */
export function reviveError(error: unknown): BridgeError {
  if (!isRecord(error) || typeof error.message !== 'string') {
    return new RevivedBridgeError({ message: 'The host answered with a malformed error' });
  }
  const code = error.code;
  const details = error.details;
  return new RevivedBridgeError({
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(isRecord(details) ? { details } : {}),
  });
}

/** A local failure (bad arguments, malformed answer) in the same shape as a bridge rejection. */
export function bridgeError(message: string, code?: string): BridgeError {
  return new RevivedBridgeError(code === undefined ? { message } : { message, code });
}
