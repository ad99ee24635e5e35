/**
 * Typed, defensive reading of JSON objects. Only own data properties are read (never a getter,
 * never the prototype chain), and the validated manifest is assembled from what these readers
 * return, so nothing of the input object (its prototype, `__proto__` keys, extra fields) survives.
 */
import { childPath, indexPath, type ProblemReport } from './manifest-problem.js';

/**
 * Field names never read or copied from a manifest. JSON.parse makes them ordinary own
 * properties, but copying one with assignment would change the prototype of the copy, and code
 * reading `obj.constructor` expects a function.
 */
export const FORBIDDEN_FIELD_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Options of {@link FieldReader.string}. */
export interface StringOptions {
  /** Report a problem when the field is absent. */
  readonly required?: boolean;
  /** Accept an empty or blank string (default false). */
  readonly allowEmpty?: boolean;
}

/** Options of {@link FieldReader.number}. */
export interface NumberOptions {
  /** Smallest accepted value. */
  readonly min?: number;
  /** When true, `min` itself is refused. */
  readonly exclusiveMin?: boolean;
}

/** The own data properties of one JSON object, read with problems reported at their paths. */
export class FieldReader {
  constructor(
    readonly report: ProblemReport,
    readonly path: string,
    private readonly fields: ReadonlyMap<string, unknown>,
  ) {}

  /** True when the object has the field. */
  has(key: string): boolean {
    return this.fields.has(key);
  }

  /** The raw value of a field (`undefined` when absent). */
  get(key: string): unknown {
    return this.fields.get(key);
  }

  /** The path of a field of this object. */
  pathOf(key: string): string {
    return childPath(this.path, key);
  }

  /** Reports "is required" when the field is absent; true when it is present. */
  require(key: string): boolean {
    if (this.fields.has(key)) return true;
    this.report.error(this.pathOf(key), 'is required');
    return false;
  }

  /** A string field, or `undefined` when absent or wrong (then a problem is reported). */
  string(key: string, options: StringOptions = {}): string | undefined {
    if (!this.fields.has(key)) {
      if (options.required) this.report.error(this.pathOf(key), 'is required');
      return undefined;
    }
    const value = this.fields.get(key);
    if (typeof value !== 'string') {
      this.report.error(this.pathOf(key), `must be a string (got ${describeJsonType(value)})`);
      return undefined;
    }
    if (!options.allowEmpty && value.trim().length === 0) {
      this.report.error(this.pathOf(key), 'must not be empty');
      return undefined;
    }
    return value;
  }

  /** An optional boolean field. */
  boolean(key: string): boolean | undefined {
    if (!this.fields.has(key)) return undefined;
    const value = this.fields.get(key);
    if (typeof value === 'boolean') return value;
    this.report.error(this.pathOf(key), `must be true or false (got ${describeJsonType(value)})`);
    return undefined;
  }

  /** An optional finite number field. */
  number(key: string, options: NumberOptions = {}): number | undefined {
    if (!this.fields.has(key)) return undefined;
    const value = this.fields.get(key);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.report.error(this.pathOf(key), `must be a number (got ${describeJsonType(value)})`);
      return undefined;
    }
    const { min } = options;
    if (min !== undefined && (value < min || (options.exclusiveMin === true && value === min))) {
      this.report.error(this.pathOf(key), `must be ${options.exclusiveMin ? 'more than' : 'at least'} ${min}`);
      return undefined;
    }
    return value;
  }
}

/**
 * Opens `value` as an object with the given known fields. Reports a problem and returns `null`
 * when it is not a plain JSON object; warns about each unknown field, which is then ignored.
 */
export function readObject(report: ProblemReport, path: string, value: unknown, knownKeys: readonly string[]): FieldReader | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    report.error(path, `must be an object (got ${describeJsonType(value)})`);
    return null;
  }
  const fields = new Map<string, unknown>();
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (FORBIDDEN_FIELD_NAMES.has(key)) {
      report.warn(childPath(path, key), 'is not allowed as a field name and is ignored');
    } else if (!knownKeys.includes(key)) {
      report.warn(childPath(path, key), 'is not a known field and is ignored');
    } else if (descriptor !== undefined && 'value' in descriptor) {
      fields.set(key, descriptor.value);
    }
  }
  return new FieldReader(report, path, fields);
}

/**
 * Opens `value` as an array: its elements with their paths, or `null` (after reporting a
 * problem) when it is not an array.
 */
export function readArray(report: ProblemReport, path: string, value: unknown): { readonly value: unknown; readonly path: string }[] | null {
  if (!Array.isArray(value)) {
    report.error(path, `must be an array (got ${describeJsonType(value)})`);
    return null;
  }
  const items: { value: unknown; path: string }[] = [];
  for (let index = 0; index < value.length; index += 1) {
    const descriptor = Object.getOwnPropertyDescriptor(value, index);
    items.push({ value: descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined, path: indexPath(path, index) });
  }
  return items;
}

/** The JSON type of a value as a word for messages: `string`, `number`, `array`, `null`, ... */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return Number.isFinite(value) ? 'a number' : 'a non-finite number';
    case 'boolean':
      return 'a boolean';
    default:
      return `a ${typeof value}`;
  }
}
