/** Shape checks for data that crossed the channel: the runtime never trusts what arrives. */

/** A non-null object that is not an array. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string. */
export function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The elements of an array, copied; anything else gives an empty list. */
export function argumentList(value: unknown): unknown[] {
  return Array.isArray(value) ? [...(value as readonly unknown[])] : [];
}

/**
 * `fields` without the ones that are `undefined`: an optional field is absent rather than
 * `undefined`, so `'code' in error` stays meaningful and nothing empty crosses the channel.
 */
export function withoutUndefined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

/**
 * A readable one-line description of a thrown value, which may be anything (a string, an object
 * whose `toString` throws, a revoked proxy, ...): its `message`, or with `named` its
 * `Name: message` (`TypeError: x is not a function`) when it has a name. Never throws.
 */
export function describeThrown(thrown: unknown, named?: boolean): string {
  try {
    if (isRecord(thrown) && typeof thrown.message === 'string') {
      return named && typeof thrown.name === 'string' ? `${thrown.name}: ${thrown.message}` : thrown.message;
    }
    return String(thrown);
  } catch {
    return 'Unknown error';
  }
}
