import { describe, expect, it } from 'vitest';
import { capMemory } from '../../../../backend-kit/src/services/wasm/cap-memory.js';
import { readWasmSignatures } from '../../../../backend-kit/src/services/wasm/read-wasm-signatures.js';
import { findUnsupportedImport } from '../../../../backend-kit/src/services/wasm/wasm-abi.js';
import { toJsonResult, toWasmArguments } from '../../../../backend-kit/src/services/wasm/wasm-values.js';
import { WorkerSlots } from '../../../../backend-kit/src/services/wasm/worker-slots.js';
import { buildWasmModule, isValidWasm, signedLeb, unsignedLeb } from '../../../support/wasm-builder.js';
import { TEST_MODULE, WASI_MODULE, memoryModule } from './wasm-support.js';

describe('wasm-builder (test support)', () => {
  it('encodes LEB128 as the specification does', () => {
    expect(unsignedLeb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(signedLeb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
    expect(signedLeb(63)).toEqual([0x3f]);
    expect(signedLeb(64)).toEqual([0xc0, 0x00]);
  });

  it('writes modules WebAssembly.validate accepts', () => {
    expect(isValidWasm(TEST_MODULE)).toBe(true);
    expect(isValidWasm(WASI_MODULE)).toBe(true);
    expect(isValidWasm(buildWasmModule({}))).toBe(true);
    expect(isValidWasm(buildWasmModule({ functions: [{ export: 'bad', results: ['i32'], body: [] }] }))).toBe(false);
  });
});

describe('readWasmSignatures', () => {
  it('reads imports, export signatures (imported functions first in the index space) and memories', () => {
    const info = readWasmSignatures(TEST_MODULE);
    expect(info.imports.map((entry) => `${entry.module}.${entry.name}`)).toEqual(['env.log', 'env.log_number']);
    expect(info.exports.get('add')).toEqual({ kind: 'function', signature: { params: ['i32', 'i32'], results: ['i32'] } });
    expect(info.exports.get('mul64')?.signature).toEqual({ params: ['i64', 'i64'], results: ['i64'] });
    expect(info.exports.get('memory')).toEqual({ kind: 'memory' });
    expect(info.exports.get('answer')).toEqual({ kind: 'global' });
    expect(info.memoryMinimumPages).toEqual([1]);
  });

  it('refuses bytes that are not a module', () => {
    expect(() => readWasmSignatures(new TextEncoder().encode('not wasm'))).toThrow(/Not a WASM module/);
  });
});

describe('the import ABI', () => {
  const importsOf = (bytes: Uint8Array) => readWasmSignatures(bytes).imports;

  it('accepts env.log and env.log_number', () => {
    expect(findUnsupportedImport(importsOf(TEST_MODULE))).toBeNull();
    const intLogger = buildWasmModule({ imports: [{ module: 'env', name: 'log_number', params: ['i32'] }] });
    expect(findUnsupportedImport(importsOf(intLogger))).toBeNull();
  });

  it('names every other import', () => {
    expect(findUnsupportedImport(importsOf(WASI_MODULE))).toMatch(/"wasi_snapshot_preview1\.fd_write"/);
    const wrongSignature = buildWasmModule({ imports: [{ module: 'env', name: 'log', params: ['i64'] }] });
    expect(findUnsupportedImport(importsOf(wrongSignature))).toMatch(/"env\.log" with the wrong signature/);
    const fetch = buildWasmModule({ imports: [{ module: 'env', name: 'fetch', params: ['i32'] }] });
    expect(findUnsupportedImport(importsOf(fetch))).toMatch(/"env\.fetch"/);
    const prototypeName = buildWasmModule({ imports: [{ module: 'env', name: 'toString' }] });
    expect(findUnsupportedImport(importsOf(prototypeName))).toMatch(/"env\.toString"/);
  });
});

describe('number conversion', () => {
  it('converts arguments by parameter type', () => {
    expect(toWasmArguments([1, -2, 0.5, 2.5], { params: ['i32', 'i64', 'f32', 'f64'], results: [] }, 'f')).toEqual([1, -2n, 0.5, 2.5]);
    expect(toWasmArguments(undefined, { params: [], results: [] }, 'f')).toEqual([]);
    expect(() => toWasmArguments([Number.NaN], { params: ['f64'], results: [] }, 'f')).toThrow(/finite/);
    expect(() => toWasmArguments([], { params: ['v128'], results: [] }, 'f')).toThrow(/v128/);
  });

  it('converts results to JSON', () => {
    expect(toJsonResult(5n, { params: [], results: ['i64'] })).toBe(5);
    expect(toJsonResult(-(2n ** 63n), { params: [], results: ['i64'] })).toBe('-9223372036854775808');
    expect(toJsonResult(Number.NaN, { params: [], results: ['f64'] })).toBe('NaN');
    expect(toJsonResult([1, 2n], { params: [], results: ['i32', 'i64'] })).toEqual([1, 2]);
    expect(toJsonResult(undefined, { params: [], results: [] })).toBeNull();
  });
});

describe('WorkerSlots', () => {
  it('runs at most `concurrency` at once, queues the rest and refuses beyond the queue', async () => {
    const slots = new WorkerSlots(1, 1);
    const first = await slots.acquire();
    let secondStarted = false;
    const second = slots.acquire().then((release) => {
      secondStarted = true;
      return release;
    });
    await expect(slots.acquire()).rejects.toMatchObject({ code: 'WASM_TIMEOUT' });
    await Promise.resolve();
    expect(secondStarted).toBe(false);
    first();
    first(); // A second release is ignored.
    (await second)();
    expect(secondStarted).toBe(true);
    (await slots.acquire())();
  });
});

describe('capMemory', () => {
  type Api = { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => { exports: { memory: { grow(pages: number): number } } } };
  const api = (globalThis as unknown as { WebAssembly: Api }).WebAssembly;
  const memoryOf = (bytes: Uint8Array) => new api.Instance(new api.Module(bytes)).exports.memory;

  it('gives a memory without maximum the cap as its maximum, and changes nothing else', () => {
    const original = memoryModule();
    const capped = capMemory(original, 10);
    expect(isValidWasm(capped)).toBe(true);
    expect(readWasmSignatures(capped)).toEqual(readWasmSignatures(original));
    const memory = memoryOf(capped);
    expect(memory.grow(9)).toBe(1);
    expect(() => memory.grow(1)).toThrow(RangeError);
  });

  it('lowers a larger declared maximum and keeps a smaller one', () => {
    expect(() => memoryOf(capMemory(memoryModule({ min: 1, max: 65536 }), 4)).grow(4)).toThrow(RangeError);
    const small = memoryOf(capMemory(memoryModule({ min: 1, max: 3 }), 1024));
    expect(small.grow(2)).toBe(1);
    expect(() => small.grow(1)).toThrow(RangeError);
  });

  it('rewrites a module with a memory and leaves one without memory byte for byte', () => {
    expect(capMemory(TEST_MODULE.slice(), 1)).not.toEqual(TEST_MODULE);
    expect(capMemory(WASI_MODULE, 1)).toEqual(WASI_MODULE);
  });
});
