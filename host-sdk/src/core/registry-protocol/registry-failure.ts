/**
 * How the registry client reports a failed request: a {@link PluginHostError} whose `details`
 * say what went wrong in protocol terms, so the backend (which answers its own HTTP codes) and the
 * store UI (which words it for people) read the same facts.
 */
import { isPluginHostError, PluginHostError, type ErrorCode } from '../errors.js';

/**
 * Why a registry request failed: `unreachable` (no answer: offline, refused, blocked, CORS, a
 * timeout), `registry` (an error status; `registryCode` is the registry's own lower_snake code
 * when its body had one) or `invalid` (an answer that is not the protocol's JSON).
 */
export type RegistryFailureKind = 'unreachable' | 'registry' | 'invalid';

/** The `details` of a registry client error. */
export type RegistryFailure = {
  readonly registryFailure: RegistryFailureKind;
  /** The URL asked. */
  readonly url: string;
  /** The HTTP status of an error answer (`registry`) or of an unusable one (`invalid`). */
  readonly status?: number;
  /** The registry's error code (`not_found`, `invalid_argument`, ...), when its error body had one. */
  readonly registryCode?: string;
};

/**
 * The error of a failed registry request: code `NOT_FOUND` for a 404 answer (no such plugin,
 * version or route), `STORE_UNAVAILABLE` for everything else; `details` is a {@link RegistryFailure}.
 */
export function registryRequestError(message: string, failure: RegistryFailure): PluginHostError {
  const code: ErrorCode = failure.registryFailure === 'registry' && failure.status === 404 ? 'NOT_FOUND' : 'STORE_UNAVAILABLE';
  return new PluginHostError(code, message, failure);
}

/** The {@link RegistryFailure} of an error the registry client threw, or `undefined` for any other value. */
export function registryFailureOf(error: unknown): RegistryFailure | undefined {
  if (!isPluginHostError(error)) return undefined;
  const kind = error.details?.registryFailure;
  if (kind !== 'unreachable' && kind !== 'registry' && kind !== 'invalid') return undefined;
  return error.details as unknown as RegistryFailure;
}
