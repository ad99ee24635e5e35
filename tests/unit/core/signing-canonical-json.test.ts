import { describe, expect, it } from 'vitest';
import { canonicalJson, isPluginHostError } from '@plughost/host-sdk/core';

function refused(value: unknown): string | null {
  try {
    canonicalJson(value);
    return null;
  } catch (error) {
    if (!isPluginHostError(error, 'INVALID_ARGUMENT')) throw error;
    return error.message;
  }
}

describe('canonicalJson', () => {
  it.each([
    [null, 'null'],
    [true, 'true'],
    [false, 'false'],
    [0, '0'],
    [-0, '0'],
    [1.5, '1.5'],
    [1e21, '1e+21'],
    [0.000001, '0.000001'],
    [1e-7, '1e-7'],
    ['', '""'],
    ['a"b\\c\n\u0001', '"a\\"b\\\\c\\n\\u0001"'],
    ['é🎮', '"é🎮"'],
    ['\ud800', '"\\ud800"'],
    [[], '[]'],
    [{}, '{}'],
  ])('writes %j as %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('sorts keys recursively and keeps array order, without whitespace', () => {
    const value = { b: [3, { z: 1, y: [2, 1] }], a: { d: true, c: null }, aa: 'x' };
    expect(canonicalJson(value)).toBe('{"a":{"c":null,"d":true},"aa":"x","b":[3,{"y":[2,1],"z":1}]}');
  });

  it('sorts by UTF-16 code units: uppercase before lowercase, digits first, astral before U+FFFF', () => {
    const value = { b: 1, B: 2, '10': 3, '9': 4, '\uffff': 5, '\u{1f3ae}': 6, é: 7 };
    // Integer-like keys would come first in property order; sorting puts "10" before "9".
    expect(canonicalJson(value)).toBe('{"10":3,"9":4,"B":2,"b":1,"é":7,"\u{1f3ae}":6,"\uffff":5}');
  });

  it('writes an own __proto__ key as data and does not touch the prototype', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts null-prototype objects', () => {
    const value = Object.create(null) as Record<string, unknown>;
    value.k = 'v';
    expect(canonicalJson(value)).toBe('{"k":"v"}');
  });

  it('gives the same text for the same data in any key order', () => {
    expect(canonicalJson({ x: 1, y: { b: 2, a: 1 } })).toBe(canonicalJson({ y: { a: 1, b: 2 }, x: 1 }));
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['undefined', undefined],
    ['a member set to undefined', { a: undefined }],
    ['undefined in an array', [1, undefined]],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    ['a hole in an array', [1, , 3]],
    ['a function', { f: () => 1 }],
    ['a symbol', Symbol('s')],
    ['a bigint', 1n],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a typed array', new Uint8Array(1)],
    ['a class instance', new (class Point {})()],
    ['a boxed string', Object('x')],
    ['an object with toJSON', { toJSON: () => 'x' }],
    ['symbol keys', { [Symbol('k')]: 1 }],
    ['an accessor property', Object.defineProperty({}, 'a', { get: () => 1, enumerable: true })],
  ])('refuses %s', (_, value) => {
    expect(refused(value)).not.toBeNull();
  });

  it('refuses cycles, naming where', () => {
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).back = cyclic;
    expect(refused(cyclic)).toMatch(/\$\.a\.back/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"k":1},"b":{"k":1}}');
  });

  it('names the offending path in the message', () => {
    expect(refused({ list: [0, { bad: Number.NaN }] })).toMatch(/\$\.list\[1\]\.bad is NaN/);
  });
});
