/**
 * The one gate every value crossing the bridge passes: a deep copy that holds only plain data, so
 * nothing a plugin hands over can run code in the host (no function, getter or class method is
 * ever invoked), share memory with it, or reach a prototype.
 */
import { ErrorCode, PluginHostError } from '../errors.js';
import { childPath, indexPath } from '../manifest/manifest-problem.js';

/** Limits and naming of {@link toPlainData}. */
export interface PlainDataOptions {
  /** Deepest nesting of arrays and objects (the root array or object is level 1); default 64. */
  readonly maxDepth?: number;
  /** Most values in total (every primitive, array, object and byte array counts one); default 100 000. */
  readonly maxNodes?: number;
  /** The name of the root in error messages, such as `args` (giving `args[1].options.fn`); default `value`. */
  readonly label?: string;
}

/** Default of {@link PlainDataOptions.maxDepth}. */
export const PLAIN_DATA_MAX_DEPTH = 64;
/** Default of {@link PlainDataOptions.maxNodes}. */
export const PLAIN_DATA_MAX_NODES = 100_000;

const ALLOWED = 'only null, booleans, finite numbers, strings, arrays, plain objects and Uint8Array can cross the bridge';

// The %TypedArray%.prototype[Symbol.toStringTag] getter reads an internal slot: it names the
// element type of a real typed array (also one from another realm) and runs no plugin code, unlike
// `instanceof` or `Object.prototype.toString`, which an object can steer.
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, Symbol.toStringTag)?.get as
  | ((this: unknown) => string | undefined)
  | undefined;

function isByteArray(value: object): value is Uint8Array {
  return typedArrayTag?.call(value) === 'Uint8Array';
}

function refuse(path: string, problem: string, explain = true): never {
  throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, explain ? `${path} ${problem}; ${ALLOWED}` : `${path} ${problem}`, { path });
}

/** Names the class of an instance without invoking anything: only data properties are read. */
function describeInstance(value: object): string {
  const prototype = Object.getPrototypeOf(value) as object | null;
  const ownConstructor = prototype === null ? undefined : Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value;
  const name = typeof ownConstructor === 'function' ? Object.getOwnPropertyDescriptor(ownConstructor, 'name')?.value : undefined;
  return typeof name === 'string' && name !== '' ? `a ${name} (a class instance)` : 'a class instance';
}

function isPlainObjectPrototype(prototype: unknown): boolean {
  return prototype === Object.prototype || prototype === null;
}

/** Stores `value` as an own data property, so `__proto__`, `constructor` or `prototype` stay inert keys. */
function defineData(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

class PlainDataCopier {
  private nodes = 0;
  // Objects on the path from the root to the value being copied: meeting one again is a cycle.
  // A value shared by two branches (not a cycle) is simply copied twice, within `maxNodes`.
  private readonly ancestors = new Set<object>();

  constructor(
    private readonly maxDepth: number,
    private readonly maxNodes: number,
  ) {}

  copy(value: unknown, path: string, depth: number): unknown {
    this.nodes += 1;
    if (this.nodes > this.maxNodes) refuse(path, `exceeds the limit of ${this.maxNodes} values in total`, false);
    switch (typeof value) {
      case 'string':
      case 'boolean':
      case 'undefined':
        return value;
      case 'number':
        if (!Number.isFinite(value)) refuse(path, `is ${String(value)}`);
        return value;
      case 'function':
        return refuse(path, 'is a function');
      case 'symbol':
        return refuse(path, 'is a symbol');
      case 'bigint':
        return refuse(path, 'is a bigint');
      default:
        if (value === null) return null;
        return this.copyObject(value as object, path, depth + 1);
    }
  }

  private copyObject(value: object, path: string, depth: number): unknown {
    if (isByteArray(value)) return copyBytes(value, path);
    if (this.ancestors.has(value)) refuse(path, 'refers back to an object that contains it (a cycle)', false);
    if (depth > this.maxDepth) refuse(path, `nests deeper than ${this.maxDepth} levels`, false);
    const prototype = Object.getPrototypeOf(value) as unknown;
    const isArray = Array.isArray(value) && prototype === Array.prototype;
    if (!isArray && !isPlainObjectPrototype(prototype)) refuse(path, `is ${describeInstance(value)}`);
    this.ancestors.add(value);
    try {
      return isArray ? this.copyArray(value as readonly unknown[], path, depth) : this.copyRecord(value, path, depth);
    } finally {
      this.ancestors.delete(value);
    }
  }

  private copyArray(value: readonly unknown[], path: string, depth: number): unknown[] {
    // `length` is an own data property of a real array, so reading it runs no code. Only the
    // indexed elements are copied (like JSON); a hole becomes `undefined`.
    const { length } = value;
    const copy: unknown[] = [];
    for (let index = 0; index < length; index += 1) {
      copy.push(this.copyProperty(value, String(index), indexPath(path, index), depth));
    }
    return copy;
  }

  private copyRecord(value: object, path: string, depth: number): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    // Own enumerable string keys only, as JSON and structured clone do; symbol keys and
    // non-enumerable properties are left out without being read.
    for (const key of Object.keys(value)) {
      defineData(copy, key, this.copyProperty(value, key, childPath(path, key), depth));
    }
    return copy;
  }

  private copyProperty(owner: object, key: string, path: string, depth: number): unknown {
    const descriptor = Object.getOwnPropertyDescriptor(owner, key);
    if (descriptor === undefined) return this.copy(undefined, path, depth);
    // A getter could run plugin code or answer differently on each read: refuse it unread.
    if ('get' in descriptor || 'set' in descriptor) refuse(path, 'is a getter or setter (an accessor property)');
    return this.copy(descriptor.value, path, depth);
  }
}

function copyBytes(value: Uint8Array, path: string): Uint8Array {
  try {
    // The constructor copies from the internal buffer: no shared memory, no plugin code.
    return new Uint8Array(value);
  } catch {
    return refuse(path, 'is a Uint8Array whose buffer was detached', false);
  }
}

function limit(option: number | undefined, fallback: number, name: string): number {
  if (option === undefined) return fallback;
  if (!Number.isSafeInteger(option) || option < 1) throw new RangeError(`toPlainData: ${name} must be a positive integer`);
  return option;
}

/**
 * Copies `value` deeply, keeping only plain data: `null`, `undefined`, booleans, finite numbers,
 * strings, arrays, plain objects (prototype `Object.prototype` or `null`) and `Uint8Array` (copied
 * into a new buffer). Accessors are never invoked; every key of a copied object is an own data
 * property of a normal object, so `__proto__`, `constructor` and `prototype` are inert data.
 * Arrays and objects must come from this realm (values that crossed a structured clone do).
 *
 * @param value - What a plugin handed over, such as the arguments of a bridge call.
 * @param options - Limits and the root's name in messages.
 * @returns The copy; `value` is never modified or kept.
 * @throws PluginHostError `INVALID_ARGUMENT` naming the path (`args[1].options.fn`) of a
 *   function, symbol, bigint, `NaN` or infinite number, cycle, class instance (`Map`, `Date`,
 *   `Error`, DOM objects, ...), getter or setter, or a value beyond the depth or size limit.
 *
 * @example
 * ```ts
 * toPlainData([{ a: 1 }, new Uint8Array([1])], { label: 'args' }); // a copy
 * toPlainData([{ fn() {} }], { label: 'args' }); // throws: args[0].fn is a function; ...
 * ```
 */
export function toPlainData(value: unknown, options: PlainDataOptions = {}): unknown {
  const copier = new PlainDataCopier(limit(options.maxDepth, PLAIN_DATA_MAX_DEPTH, 'maxDepth'), limit(options.maxNodes, PLAIN_DATA_MAX_NODES, 'maxNodes'));
  return copier.copy(value, options.label ?? 'value', 0);
}

/**
 * Copies an argument that must be an object (not `null`, not an array, not a byte array) with
 * {@link toPlainData}.
 *
 * @param value - The argument.
 * @param what - Its name in messages, such as `vars` or `options`.
 * @returns The plain copy.
 * @throws PluginHostError `INVALID_ARGUMENT` when `value` is not an object or not plain data.
 */
export function assertPlainRecord(value: unknown, what: string): Readonly<Record<string, unknown>> {
  const copy = toPlainData(value, { label: what });
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy) || copy instanceof Uint8Array) {
    throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, `${what} must be an object`, { path: what });
  }
  return copy as Readonly<Record<string, unknown>>;
}
