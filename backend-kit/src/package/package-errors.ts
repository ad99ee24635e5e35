import { ErrorCode, PluginHostError, type ErrorDetails } from '@plughost/host-sdk/core';
import type { PackageLimitName } from './limits.js';

/** The message the specification fixes for a package without a root `manifest.json`. */
export const INVALID_PACKAGE_MESSAGE = 'Invalid plugin package';

/**
 * Quotes an entry name for a message. JSON quoting keeps NUL, control characters and line breaks
 * of hostile names visible instead of letting them forge log lines.
 */
export function quoteEntry(name: string): string {
  return JSON.stringify(name);
}

function withCause(error: PluginHostError, cause: unknown): PluginHostError {
  if (cause !== undefined) {
    Object.defineProperty(error, 'cause', { value: cause, enumerable: false, configurable: true });
  }
  return error;
}

/** `INVALID_PACKAGE`: the archive is not a zip a package may be, for the given reason. */
export function invalidPackage(reason: string, details?: ErrorDetails, cause?: unknown): PluginHostError {
  return withCause(new PluginHostError(ErrorCode.INVALID_PACKAGE, `${INVALID_PACKAGE_MESSAGE}: ${reason}`, details), cause);
}

/** `UNSAFE_ENTRY_PATH`: the entry's name or type could write outside, or confuse, the folder. */
export function unsafeEntry(entry: string, problem: string): PluginHostError {
  return new PluginHostError(ErrorCode.UNSAFE_ENTRY_PATH, `Unsafe entry path ${quoteEntry(entry)}: ${problem}`, { entry });
}

/** `PACKAGE_TOO_LARGE`: `actual` exceeds the limit `limit` (`maximum`). */
export function tooLarge(limit: PackageLimitName, maximum: number, actual: number, what: string, entry?: string): PluginHostError {
  return new PluginHostError(
    ErrorCode.PACKAGE_TOO_LARGE,
    `Package too large: ${what} (${actual}) exceeds ${limit} (${maximum})`,
    entry === undefined ? { limit, maximum, actual } : { limit, maximum, actual, entry },
  );
}
