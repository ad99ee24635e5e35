/**
 * Canonical JSON (decisions, section 5): object keys sorted recursively by UTF-16 code units
 * (JavaScript's default sort), arrays in their order, no whitespace, strings and numbers exactly as
 * `JSON.stringify` writes them. Signatures cover these bytes, so anything `JSON.stringify` would
 * drop or change silently (`undefined`, functions, `NaN`, `Date`, `Map`, `toJSON`) is refused
 * instead: two parties must never disagree on what was signed.
 */
import { PluginHostError } from '../errors.js';

/** A value that canonical JSON can represent. */
export type CanonicalJsonValue = null | boolean | number | string | readonly CanonicalJsonValue[] | { readonly [key: string]: CanonicalJsonValue };

function refuse(path: string, problem: string): never {
  throw new PluginHostError('INVALID_ARGUMENT', `Canonical JSON: ${path} ${problem}`, { path });
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function write(value: unknown, path: string, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) return refuse(path, `is ${String(value)}, which JSON cannot represent`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return refuse(path, `is of type ${typeof value}, which JSON cannot represent`);
  }
  if (value === null) return 'null';
  if (ancestors.has(value)) return refuse(path, 'refers back to itself');
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let index = 0; index < value.length; index++) {
      // A hole is `undefined` to us, which is refused like any other `undefined`.
      items.push(write(value[index], `${path}[${index}]`, ancestors));
    }
    text = `[${items.join(',')}]`;
  } else {
    if (!isPlainObject(value)) return refuse(path, 'is not a plain object or array');
    if (Object.getOwnPropertySymbols(value).length > 0) return refuse(path, 'has symbol keys');
    const record = value as Record<string, unknown>;
    // Object.keys lists own keys only, so an own `__proto__` key (as JSON.parse creates) is
    // written like any other and never reaches the prototype chain.
    const keys = Object.keys(record).sort();
    const members = keys.map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(record, key);
      if (descriptor === undefined || !('value' in descriptor)) {
        return refuse(`${path}.${key}`, 'is an accessor property');
      }
      return `${JSON.stringify(key)}:${write(descriptor.value, `${path}.${key}`, ancestors)}`;
    });
    text = `{${members.join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}

/**
 * Writes `value` as canonical JSON text.
 *
 * @example
 * ```ts
 * canonicalJson({ b: [1, 'x'], a: { d: true, c: null } }); // '{"a":{"c":null,"d":true},"b":[1,"x"]}'
 * ```
 * @throws PluginHostError `INVALID_ARGUMENT` for non-finite numbers, `undefined`, functions,
 *   symbols, bigints, non-plain objects (class instances, `Date`, `Map`, typed arrays), accessor
 *   properties, symbol keys and cycles. The message names the offending path.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '$', new Set());
}

/**
 * A copy of the plain object `value` without the member `key`, as a null-prototype object, so
 * that copying any key (even `__proto__`) only ever creates an own property.
 */
export function omitKey(value: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const own of Object.keys(value)) {
    if (own === key) continue;
    Object.defineProperty(copy, own, {
      value: value[own],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
