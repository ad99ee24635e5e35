/**
 * The rejection texts of bridge calls, word for word as the specification and decisions section 3
 * write them, and the conversion between thrown errors and {@link WireError}. Plugins match on
 * these texts, so they live in one place.
 */
import { ErrorCode } from '../errors.js';
import type { PermissionId } from '../permissions.js';
import { toPlainData } from './plain-data.js';
import type { WireError } from './protocol.js';

/**
 * A call without the permission its method (or a guarded backend route) needs:
 * `Permission denied: requires <id>`. `details.permission` repeats the id for code that branches on it.
 */
export function permissionDenied(permission: PermissionId): WireError {
  return { message: `Permission denied: requires ${permission}`, details: { permission } };
}

/** A method name the bridge does not know (or a direct member called through `call`): `Unknown method: <name>`. */
export function unknownMethod(name: string): WireError {
  return { message: `Unknown method: ${name}` };
}

/**
 * A non-2xx answer of the local backend: `Backend error: <status>`, carrying the backend's error
 * `code` (and extra facts such as the `prefix` of `FS_AUTHORIZATION_REQUIRED`) when it gave them.
 */
export function backendError(status: number, code?: string, details?: Readonly<Record<string, unknown>>): WireError {
  return withOptional({ message: `Backend error: ${status}` }, code, details);
}

/** A failed `proxyFetch`/`proxyFetchStream`: `Proxy failed: <status>`, with the backend's `code` when given. */
export function proxyFailed(status: number, code?: string): WireError {
  return withOptional({ message: `Proxy failed: ${status}` }, code, undefined);
}

/**
 * An `openUrl` whose URL the launcher could not open: `Could not open the URL: <why>`, with the
 * backend's `code` when it gave one and `details` (`status` of its answer, its `reason`). A URL
 * the backend refuses as not http(s) is not this: it stays `Backend error: 400` (specification).
 */
export function openUrlFailed(why: string, code?: string, details?: Readonly<Record<string, unknown>>): WireError {
  return withOptional({ message: `Could not open the URL: ${why}` }, code, details);
}

/** Why {@link pluginMethodUnavailable} refused a `callPlugin`. */
export type PluginMethodUnavailableReason = 'not-installed' | 'inactive' | 'no-such-method';

const UNAVAILABLE_REASON: Readonly<Record<PluginMethodUnavailableReason, string>> = {
  'not-installed': 'that plugin is not installed',
  inactive: 'that plugin is not active',
  'no-such-method': 'that plugin has not registered this method',
};

/**
 * A `callPlugin` whose target cannot answer. The message names the plugin and the method and, as
 * the specification asks, suggests the plugin may be uninstalled or inactive, e.g.
 * `Cannot call method "greet" of plugin "com.example.a": that plugin is not active. It may be uninstalled or inactive.`
 */
export function pluginMethodUnavailable(pluginId: string, method: string, reason: PluginMethodUnavailableReason): WireError {
  return {
    message: `Cannot call method ${JSON.stringify(method)} of plugin ${JSON.stringify(pluginId)}: ${UNAVAILABLE_REASON[reason]}. It may be uninstalled or inactive.`,
    details: { pluginId, method, reason },
  };
}

/** An argument the bridge refuses before doing anything; carries code `INVALID_ARGUMENT`. */
export function invalidArgument(message: string): WireError {
  return { message, code: ErrorCode.INVALID_ARGUMENT };
}

function withOptional(base: { readonly message: string }, code: unknown, details: unknown): WireError {
  const plainDetails = plainRecordOrUndefined(details);
  return {
    ...base,
    ...(typeof code === 'string' ? { code } : {}),
    ...(plainDetails === undefined ? {} : { details: plainDetails }),
  };
}

/** `details` survives only as a plain-data object; anything else is dropped rather than sent. */
function plainRecordOrUndefined(value: unknown): Readonly<Record<string, unknown>> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  try {
    const copy = toPlainData(value, { label: 'details' });
    return copy instanceof Uint8Array ? undefined : (copy as Readonly<Record<string, unknown>>);
  } catch {
    return undefined;
  }
}

/** `String(value)`, which throws for some objects (no `toString`, or one that throws). */
function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'Unknown error';
  }
}

/**
 * Turns anything thrown into the wire form: an object with a string `message` (an `Error`, a
 * `PluginHostError`, a `WireError`) keeps `message`, a string `code` and plain-data `details`;
 * anything else becomes `{message: String(error)}`. Never throws.
 */
export function toWireError(error: unknown): WireError {
  try {
    if (typeof error === 'object' && error !== null) {
      const { message, code, details } = error as { message?: unknown; code?: unknown; details?: unknown };
      if (typeof message === 'string') return withOptional({ message }, code, details);
    }
  } catch {
    // A throwing `message` getter: fall through to the string form.
  }
  return { message: safeString(error) };
}

/** The `Error` a bridge call rejects with: its `message` is the exact text, plus `code` and `details`. */
export type BridgeError = Error & { code?: string; details?: Readonly<Record<string, unknown>> };

/**
 * Rebuilds the `Error` a bridge call rejects with from its wire form. The other side of the
 * channel is not trusted, so only a string `code` and plain-data `details` are kept.
 */
export function wireErrorToError(wire: WireError): BridgeError {
  const error: BridgeError = new Error(typeof wire.message === 'string' ? wire.message : safeString(wire.message));
  if (typeof wire.code === 'string') error.code = wire.code;
  const details = plainRecordOrUndefined(wire.details);
  if (details !== undefined) error.details = details;
  return error;
}
