import { invalidArgument } from '../../core/bridge/bridge-errors.js';
import { BridgeFailure } from '../../host/backend-client.js';

/** Rejects a call with `INVALID_ARGUMENT`-style text naming the method and what was wrong. */
export function badArgument(method: string, message: string): BridgeFailure {
  return new BridgeFailure(invalidArgument(`${method}: ${message}`));
}

/** Argument `index` as a non-empty string. */
export function stringArgument(method: string, args: readonly unknown[], index: number, name: string): string {
  const value = args[index];
  if (typeof value !== 'string' || value === '') throw badArgument(method, `"${name}" must be a non-empty string`);
  return value;
}

/** Argument `index` as an object (plain data already). */
export function objectArgument(method: string, args: readonly unknown[], index: number, name: string): Record<string, unknown> {
  const value = args[index];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badArgument(method, `"${name}" must be an object`);
  return value as Record<string, unknown>;
}

/** Optional argument `index` as an object, or `{}`. */
export function optionalObjectArgument(method: string, args: readonly unknown[], index: number, name: string): Record<string, unknown> {
  return args[index] === undefined || args[index] === null ? {} : objectArgument(method, args, index, name);
}

/** Optional finite number argument. */
export function optionalNumber(method: string, value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badArgument(method, `"${name}" must be a number`);
  return value;
}

/** The path segment of a plugin id, encoded. */
export function idSegment(id: string): string {
  return encodeURIComponent(id);
}
