import { describe, expect, it } from 'vitest';
import { PLAIN_DATA_MAX_DEPTH, PLAIN_DATA_MAX_NODES, assertPlainRecord, isPluginHostError, toPlainData } from '@plughost/host-sdk/core';

/** Runs `toPlainData` expecting a refusal; returns the error for further checks. */
function refusal(value: unknown, options?: Parameters<typeof toPlainData>[1]): { message: string; details: unknown } {
  try {
    toPlainData(value, options);
  } catch (error) {
    expect(isPluginHostError(error, 'INVALID_ARGUMENT')).toBe(true);
    return error as { message: string; details: unknown };
  }
  throw new Error('toPlainData accepted the value');
}

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = { child: value };
  return value;
}

describe('toPlainData', () => {
  it('copies JSON-like data deeply, equal but not the same objects', () => {
    const input = { a: 1, b: 'two', c: [true, null, { d: -0.5 }], e: {} };
    const copy = toPlainData(input) as typeof input;
    expect(copy).toEqual(input);
    expect(copy).not.toBe(input);
    expect(copy.c).not.toBe(input.c);
    expect(copy.c[2]).not.toBe(input.c[2]);
  });

  it.each([null, true, false, 0, -1.5, 'text', '', undefined])('keeps the primitive %j', (value) => {
    expect(toPlainData(value)).toBe(value);
  });

  it('copies a Uint8Array into a new buffer', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const copy = toPlainData({ bytes }) as { bytes: Uint8Array };
    expect(copy.bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(copy.bytes)).toEqual([1, 2, 3]);
    expect(copy.bytes.buffer).not.toBe(bytes.buffer);
    bytes[0] = 99;
    expect(copy.bytes[0]).toBe(1);
  });

  it('copies only the viewed part of a Uint8Array over a larger buffer', () => {
    const buffer = new Uint8Array([9, 8, 7, 6]).buffer;
    const copy = toPlainData(new Uint8Array(buffer, 1, 2)) as Uint8Array;
    expect(Array.from(copy)).toEqual([8, 7]);
    expect(copy.buffer.byteLength).toBe(2);
  });

  it('accepts null-prototype objects and gives back ordinary objects', () => {
    const input = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    const copy = toPlainData(input);
    expect(copy).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('copies a value shared by two branches (not a cycle) twice', () => {
    const shared = { x: 1 };
    const copy = toPlainData({ a: shared, b: shared }) as { a: object; b: object };
    expect(copy).toEqual({ a: { x: 1 }, b: { x: 1 } });
    expect(copy.a).not.toBe(copy.b);
  });

  it('turns array holes into undefined and ignores extra array properties', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    Object.assign(sparse, { extra: 'ignored' });
    const copy = toPlainData(sparse) as unknown[];
    expect(copy).toEqual([1, undefined, 3]);
    expect(Object.keys(copy)).toEqual(['0', '1', '2']);
  });

  it('leaves out symbol keys and non-enumerable properties without reading them', () => {
    let reads = 0;
    const input = { a: 1, [Symbol('s')]: 2 };
    Object.defineProperty(input, 'hidden', {
      enumerable: false,
      get() {
        reads += 1;
        return 3;
      },
    });
    expect(toPlainData(input)).toEqual({ a: 1 });
    expect(Object.getOwnPropertySymbols(toPlainData(input) as object)).toEqual([]);
    expect(reads).toBe(0);
  });

  describe('prototype pollution', () => {
    it('keeps a parsed __proto__ key as an inert own key', () => {
      const input = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}}') as unknown;
      const copy = toPlainData(input) as Record<string, unknown>;
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect(Object.hasOwn(copy, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: 1 });
      expect(Object.hasOwn(copy, 'constructor')).toBe(true);
      expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
    });

    it('keeps a nested __proto__ inert too', () => {
      const input = JSON.parse('{"a": [{"__proto__": {"isAdmin": true}}]}') as unknown;
      const copy = toPlainData(input) as { a: Array<Record<string, unknown>> };
      const inner = copy.a[0] as Record<string, unknown>;
      expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
      expect((inner as { isAdmin?: unknown }).isAdmin).toBeUndefined();
      expect(Object.keys(inner)).toEqual(['__proto__']);
    });
  });

  describe('refusals name the path', () => {
    it.each([
      ['a function', [1, { options: { fn: () => 1 } }], 'args[1].options.fn', 'is a function'],
      ['a symbol', [Symbol('s')], 'args[0]', 'is a symbol'],
      ['a bigint', { n: 1n }, 'args.n', 'is a bigint'],
      ['NaN', { n: Number.NaN }, 'args.n', 'is NaN'],
      ['Infinity', [[Number.POSITIVE_INFINITY]], 'args[0][0]', 'is Infinity'],
      ['-Infinity', [Number.NEGATIVE_INFINITY], 'args[0]', 'is -Infinity'],
      ['a Map', [new Map()], 'args[0]', 'is a Map (a class instance)'],
      ['a Set', { s: new Set([1]) }, 'args.s', 'is a Set (a class instance)'],
      ['a Date', { when: new Date(0) }, 'args.when', 'is a Date (a class instance)'],
      ['a RegExp', [/x/], 'args[0]', 'is a RegExp (a class instance)'],
      ['an Error', [new Error('e')], 'args[0]', 'is a Error (a class instance)'],
      ['an ArrayBuffer', [new ArrayBuffer(2)], 'args[0]', 'is a ArrayBuffer (a class instance)'],
      ['another typed array', [new Uint16Array(2)], 'args[0]', 'is a Uint16Array (a class instance)'],
      ['a user class', [new (class Point {})()], 'args[0]', 'is a Point (a class instance)'],
      ['a boxed string', [new String('s')], 'args[0]', 'is a String (a class instance)'],
      ['an odd key', { 'my key': () => 1 }, 'args["my key"]', 'is a function'],
    ])('%s', (_label, value, path, problem) => {
      const error = refusal(value, { label: 'args' });
      expect(error.message.startsWith(`${path} ${problem}`)).toBe(true);
      expect(error.details).toEqual({ path });
    });

    it('uses "value" as the root name by default', () => {
      expect(refusal(() => 1).message).toMatch(/^value is a function/);
    });

    it('refuses an array subclass', () => {
      class List extends Array<number> {}
      expect(refusal({ list: List.from([1]) }).message).toMatch(/^value\.list is a List/);
    });

    it('refuses an object whose prototype is another plain object', () => {
      expect(refusal(Object.create({ inherited: 1 }) as object).message).toMatch(/^value is a class instance/);
    });
  });

  describe('accessors are refused unread', () => {
    it('does not invoke a getter, even on an array element', () => {
      let calls = 0;
      const withGetter = {
        get secret(): number {
          calls += 1;
          return 1;
        },
      };
      const array: unknown[] = [];
      Object.defineProperty(array, 0, {
        enumerable: true,
        get() {
          calls += 1;
          return 1;
        },
      });
      expect(refusal([withGetter], { label: 'args' }).message).toMatch(/^args\[0\]\.secret is a getter or setter/);
      expect(refusal(array).message).toMatch(/^value\[0\] is a getter or setter/);
      expect(calls).toBe(0);
    });

    it('refuses a setter-only property', () => {
      const input = {};
      Object.defineProperty(input, 'x', { enumerable: true, set() {} });
      expect(refusal(input).message).toMatch(/^value\.x is a getter or setter/);
    });
  });

  describe('cycles and limits', () => {
    it('refuses a cycle and names where it closes', () => {
      const a: Record<string, unknown> = { b: {} };
      (a.b as Record<string, unknown>).back = a;
      expect(refusal(a).message).toMatch(/^value\.b\.back refers back/);
      const list: unknown[] = [];
      list.push(list);
      expect(refusal(list).message).toMatch(/^value\[0\] refers back/);
    });

    it('accepts exactly maxDepth levels and refuses one more', () => {
      expect(() => toPlainData(nested(PLAIN_DATA_MAX_DEPTH))).not.toThrow();
      expect(refusal(nested(PLAIN_DATA_MAX_DEPTH + 1)).message).toContain(`nests deeper than ${PLAIN_DATA_MAX_DEPTH} levels`);
      expect(() => toPlainData(nested(3), { maxDepth: 3 })).not.toThrow();
      expect(refusal(nested(4), { maxDepth: 3 }).message).toBe('value.child.child.child nests deeper than 3 levels');
    });

    it('counts every value against maxNodes', () => {
      // An array of 4 numbers is 5 values.
      expect(toPlainData([1, 2, 3, 4], { maxNodes: 5 })).toEqual([1, 2, 3, 4]);
      expect(refusal([1, 2, 3, 4], { maxNodes: 4 }).message).toBe('value[3] exceeds the limit of 4 values in total');
    });

    it('stops a huge sparse array at the default node limit instead of walking it', () => {
      const huge: unknown[] = [];
      huge.length = 2 ** 32 - 1;
      expect(refusal(huge).message).toContain(`exceeds the limit of ${PLAIN_DATA_MAX_NODES} values`);
    });

    it('stops exponential sharing at the node limit', () => {
      let value: unknown = 'x';
      for (let level = 0; level < 40; level += 1) value = [value, value];
      expect(refusal(value).message).toContain('exceeds the limit');
    });

    it('rejects nonsensical limits', () => {
      expect(() => toPlainData(1, { maxDepth: 0 })).toThrow(RangeError);
      expect(() => toPlainData(1, { maxNodes: 1.5 })).toThrow(RangeError);
    });
  });
});

describe('assertPlainRecord', () => {
  it('returns a plain copy of an object', () => {
    const input = { a: [1] };
    const copy = assertPlainRecord(input, 'options');
    expect(copy).toEqual(input);
    expect(copy).not.toBe(input);
  });

  it.each([
    ['null', null],
    ['an array', [1]],
    ['a string', 'x'],
    ['a byte array', new Uint8Array(1)],
    ['undefined', undefined],
  ])('refuses %s', (_label, value) => {
    expect(() => assertPlainRecord(value, 'options')).toThrow('options must be an object');
  });

  it('names the path of a nested problem with the given name', () => {
    expect(() => assertPlainRecord({ deep: { fn: () => 1 } }, 'options')).toThrow(/^options\.deep\.fn is a function/);
  });
});
