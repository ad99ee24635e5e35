/**
 * Shape checks for the JSON a person writes (the `--mock` file): each check says where a value
 * broke its shape, what was expected there and what was found, in words, so the message can be
 * acted on without reading the code.
 */
import { nearestName } from './nearest-name.js';

/** Where a value broke its shape. */
export interface ShapeProblem {
  /** The path of the value in the file (`systemInfo.Memory`, `settings["com.example.hello"]`). */
  readonly at: string;
  /** What the value should be, in words. */
  readonly expected: string;
  /** What it is, in words (`a string ("16GB")`). */
  readonly found: string;
  /** True when the value is not of the expected kind at all (rather than wrong inside). */
  readonly wrongKind?: true;
}

/** A check of one JSON value. */
export interface Shape {
  /** What a fitting value is, in words (`a whole number of bytes`). */
  readonly expected: string;
  /** `null` when `value` fits; else the first problem found, inside `value` or of `value` itself. */
  check(value: unknown, at: string): ShapeProblem | null;
}

/** A plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const QUOTED_LIMIT = 40;

/** `value` in words, as a problem message shows what was found. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > QUOTED_LIMIT ? `${value.slice(0, QUOTED_LIMIT)}…` : value;
    return value === '' ? 'an empty string' : `a string (${JSON.stringify(shown)})`;
  }
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `${value}`;
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array of ${value.length}`;
  if (isJsonObject(value))
    return Object.keys(value).length === 0
      ? 'an empty object'
      : `an object with ${Object.keys(value)
          .map((key) => JSON.stringify(key))
          .join(', ')}`;
  return typeof value;
}

/** The path of `key` inside the value at `parent`: `parent.key`, or `parent["key"]` for keys that are not identifiers. */
export function childPath(parent: string, key: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** The problem of a value that is not of the expected kind at all. */
export function wrongKind(at: string, expected: string, value: unknown): ShapeProblem {
  return { at, expected, found: describeValue(value), wrongKind: true };
}

function shape(expected: string, fits: (value: unknown) => boolean): Shape {
  return { expected, check: (value, at) => (fits(value) ? null : wrongKind(at, expected, value)) };
}

/** A string; `nonEmpty` refuses `""`. */
export function stringShape(expected = 'a string', options: { nonEmpty?: boolean } = {}): Shape {
  return shape(expected, (value) => typeof value === 'string' && (options.nonEmpty !== true || value !== ''));
}

/** A whole number from `minimum` to `maximum` (both included). */
export function integerShape(expected: string, minimum = Number.MIN_SAFE_INTEGER, maximum = Number.MAX_SAFE_INTEGER): Shape {
  return shape(expected, (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum && value <= maximum);
}

/** A finite number from `minimum` to `maximum` (both included). */
export function numberShape(expected: string, minimum: number, maximum: number): Shape {
  return shape(expected, (value) => typeof value === 'number' && Number.isFinite(value) && value >= minimum && value <= maximum);
}

/** `true` or `false`. */
export const booleanShape: Shape = shape('true or false', (value) => typeof value === 'boolean');

/** Any JSON object. */
export function objectShape(expected: string): Shape {
  return shape(expected, isJsonObject);
}

/** One of `values`. */
export function literalShape(values: readonly string[]): Shape {
  const expected = `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
  return shape(expected, (value) => typeof value === 'string' && values.includes(value));
}

/** `null`, or a value of `inner`. */
export function nullable(inner: Shape): Shape {
  const expected = `${inner.expected} or null`;
  return {
    expected,
    check(value, at) {
      const problem = value === null ? null : inner.check(value, at);
      // A value of another kind is told both kinds it may be.
      return problem?.wrongKind ? { ...problem, expected } : problem;
    },
  };
}

/** An array whose every element fits `item`. */
export function arrayOf(item: Shape, expected: string): Shape {
  return {
    expected,
    check(value, at) {
      if (!Array.isArray(value)) return wrongKind(at, expected, value);
      for (const [index, element] of value.entries()) {
        const problem = item.check(element, `${at}[${index}]`);
        if (problem) return problem;
      }
      return null;
    },
  };
}

/** An object whose every key passes `key` (a check returning what a key should be, or `null`) and every value fits `value`. */
export function recordOf(options: { readonly expected: string; readonly key: (key: string) => string | null; readonly value: Shape }): Shape {
  const { expected } = options;
  return {
    expected,
    check(value, at) {
      if (!isJsonObject(value)) return wrongKind(at, expected, value);
      for (const [key, entry] of Object.entries(value)) {
        const keyProblem = options.key(key);
        if (keyProblem !== null) return { at: childPath(at, key), expected: `a key that is ${keyProblem}`, found: `the key ${JSON.stringify(key)}` };
        const problem = options.value.check(entry, childPath(at, key));
        if (problem) return problem;
      }
      return null;
    },
  };
}

/**
 * An object with the fields `fields` (each optional unless listed in `required`) and no others. An
 * unknown field is reported with the nearest known name, since it is most likely a typo.
 */
export function fieldsOf(options: {
  readonly expected: string;
  readonly fields: Readonly<Record<string, Shape>>;
  readonly required?: readonly string[];
}): Shape {
  const { expected, fields } = options;
  const names = Object.keys(fields);
  return {
    expected,
    check(value, at) {
      if (!isJsonObject(value)) return wrongKind(at, expected, value);
      for (const [key, entry] of Object.entries(value)) {
        const field = fields[key];
        if (!Object.hasOwn(fields, key) || field === undefined) {
          const near = nearestName(key, names);
          return {
            at: childPath(at, key),
            expected: `one of the fields ${names.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`,
            found: `the unknown field ${JSON.stringify(key)}`,
          };
        }
        const problem = field.check(entry, childPath(at, key));
        if (problem) return problem;
      }
      const missing = (options.required ?? []).find((name) => !Object.hasOwn(value, name));
      if (missing !== undefined) return { at, expected: `${expected}, with the field "${missing}"`, found: `${describeValue(value)} (no "${missing}")` };
      return null;
    },
  };
}
