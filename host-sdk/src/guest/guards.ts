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
  return Array.isArray(value) ? Array.from(value as readonly unknown[]) : [];
}

/**
 * A readable one-line description of a thrown value, which may be anything (a string, an object
 * whose `toString` throws, a revoked proxy, ...). Never throws.
 */
export function describeThrown(thrown: unknown): string {
  try {
    if (isRecord(thrown) && typeof thrown.message === 'string') return thrown.message;
    return String(thrown);
  } catch {
    return 'Unknown error';
  }
}
