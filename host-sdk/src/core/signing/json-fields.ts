/**
 * Small strict readers shared by the parsers of `signature.json`, `signature.cert.json` and the
 * revocation list. Every failure is a `SIGNATURE_INVALID` error naming the file and the field.
 */
import { PluginHostError } from '../errors.js';
import { describeDuplicateJsonKey, findDuplicateJsonKey } from './duplicate-json-keys.js';
import { base64ToBytes, isLowercaseHex, utf8Decode } from './encoding.js';

/** A parsed JSON object; `label` names it in error messages (a file name). */
export interface JsonRecord {
  readonly label: string;
  readonly value: Readonly<Record<string, unknown>>;
}

/** Throws `SIGNATURE_INVALID` with `<label>: <problem>`. */
export function fail(label: string, problem: string): never {
  throw new PluginHostError('SIGNATURE_INVALID', `${label}: ${problem}`);
}

/**
 * Decodes UTF-8 JSON bytes that must hold one plain object in which no object repeats a key (a
 * repeated key would let two readers of the same signed bytes see different values).
 */
export function parseJsonObject(bytes: Uint8Array, label: string): JsonRecord {
  let text: string;
  try {
    text = utf8Decode(bytes);
  } catch {
    return fail(label, 'is not valid UTF-8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(label, 'is not valid JSON');
  }
  const duplicate = findDuplicateJsonKey(text);
  if (duplicate) throw new PluginHostError('SIGNATURE_INVALID', describeDuplicateJsonKey(label, duplicate));
  return asRecord(parsed, label);
}

/** Checks that `value` is a plain JSON object (not an array, not null). */
export function asRecord(value: unknown, label: string): JsonRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(label, 'must be a JSON object');
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return fail(label, 'must be a plain JSON object');
  return { label, value: value as Readonly<Record<string, unknown>> };
}

/** The own value of `key`, never one inherited from a prototype. */
export function own(record: JsonRecord, key: string): unknown {
  return Object.hasOwn(record.value, key) ? record.value[key] : undefined;
}

/** A required string field. */
export function requireString(record: JsonRecord, key: string): string {
  const value = own(record, key);
  if (value === undefined) return fail(record.label, `field "${key}" is missing`);
  if (typeof value !== 'string') return fail(record.label, `field "${key}" must be a string`);
  return value;
}

/** A required string field with one allowed value. */
export function requireConstant<T extends string>(record: JsonRecord, key: string, expected: T): T {
  const value = requireString(record, key);
  if (value !== expected) {
    return fail(record.label, `field "${key}" must be "${expected}", not ${JSON.stringify(value)}`);
  }
  return expected;
}

/** A required field of lowercase hex encoding exactly `byteLength` bytes. */
export function requireHex(record: JsonRecord, key: string, byteLength: number): string {
  const value = requireString(record, key);
  if (!isLowercaseHex(value, byteLength)) {
    return fail(record.label, `field "${key}" must be ${byteLength * 2} lowercase hex characters`);
  }
  return value;
}

/** A strict base64 string field that must decode to exactly `byteLength` bytes. */
export function requireBase64(record: JsonRecord, key: string, byteLength: number): string {
  const value = requireString(record, key);
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(value);
  } catch {
    return fail(record.label, `field "${key}" is not standard padded base64`);
  }
  if (bytes.length !== byteLength) {
    return fail(record.label, `field "${key}" must encode ${byteLength} bytes, not ${bytes.length}`);
  }
  return value;
}

/** Refuses any own key not in `allowed`. */
export function refuseUnknownFields(record: JsonRecord, allowed: readonly string[]): void {
  for (const key of Object.keys(record.value)) {
    if (!allowed.includes(key)) fail(record.label, `unknown field ${JSON.stringify(key)}`);
  }
}

/** Copies own enumerable members into a fresh object without ever invoking a setter such as
 * `__proto__`. */
export function copyMembers(target: object, source: Readonly<Record<string, unknown>>, skip: readonly string[]): void {
  for (const key of Object.keys(source)) {
    if (skip.includes(key)) continue;
    Object.defineProperty(target, key, { value: source[key], enumerable: true, writable: true, configurable: true });
  }
}
