import { afterEach, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { isValidWasm } from '../../../support/wasm-builder.js';
import { errorOf, jsonOf } from './plugins-support.js';
import { TEST_MODULE, installWasmPlugin, memoryModule } from './wasm-support.js';

const ID = 'com.example.hungry';
const NEIGHBOUR = 'com.example.neighbour';
const PAGE = 64 * 1024;
let running: TestBackend | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: TestBackendOptions = {}, module: Uint8Array = memoryModule()): Promise<TestBackend> {
  running = await startTestBackend(options);
  await installWasmPlugin(running.dataDirectory, ID, module);
  await installWasmPlugin(running.dataDirectory, NEIGHBOUR, TEST_MODULE);
  return running;
}

function invoke(backend: TestBackend, id: string, exportName: string, args: number[] = []): Promise<Response> {
  return backend.api(`/api/plugins/wasm/${id}/invoke`, { json: { exportName, args } });
}

async function resultOf(backend: TestBackend, exportName: string, args: number[] = []): Promise<unknown> {
  return (await jsonOf<{ ok: true; result: unknown }>(await invoke(backend, ID, exportName, args), 200)).result;
}

describe('WASM linear memory cap (decisions section 2)', () => {
  it('the test modules are valid WebAssembly', () => {
    expect(isValidWasm(memoryModule())).toBe(true);
    expect(isValidWasm(memoryModule({ min: 1, max: 4000, exported: false }))).toBe(true);
  });

  it('a module growing its memory to 100 MiB fails inside the module: memory.grow answers -1', async () => {
    const backend = await start();
    expect(await resultOf(backend, 'grow', [(100 * 1024 * 1024) / PAGE - 1])).toBe(-1);
    // Up to 64 MiB is fine; one page more is not.
    expect(await resultOf(backend, 'grow', [(64 * 1024 * 1024) / PAGE - 1])).toBe(1);
    expect(await resultOf(backend, 'grow', [(64 * 1024 * 1024) / PAGE])).toBe(-1);
  });

  it('caps a memory that declares a larger maximum, or none, and one that is not exported', async () => {
    for (const module of [memoryModule({ min: 1, max: 4000 }), memoryModule({ min: 1, max: 65536, exported: false })]) {
      const backend = await start({}, module);
      expect(await resultOf(backend, 'grow', [1600])).toBe(-1);
      expect(await resultOf(backend, 'grow', [1023])).toBe(1);
      await running?.close();
      running = undefined;
    }
  });

  it('keeps a smaller maximum the module declares itself', async () => {
    const backend = await start({}, memoryModule({ min: 1, max: 4 }));
    expect(await resultOf(backend, 'grow', [3])).toBe(1);
    expect(await resultOf(backend, 'grow', [4])).toBe(-1);
  });

  it('a module that keeps growing stops at the cap, and one that traps when refused ends with 422 WASM_TRAP', async () => {
    const backend = await start();
    expect(await resultOf(backend, 'grow_until_refused', [1])).toBe(1024);
    expect(await resultOf(backend, 'grow_until_refused', [100])).toBe(1001);
    const error = await errorOf(await invoke(backend, ID, 'grow_or_trap', [1600]), 422);
    expect(error.code).toBe('WASM_TRAP');
    // The backend is unharmed and the next call starts from a fresh instance.
    expect(await resultOf(backend, 'pages')).toBe(1);
  });

  it('takes the cap from wasmMemoryLimitBytes, and refuses a module whose initial memory is larger', async () => {
    const backend = await start({ wasmMemoryLimitBytes: 2 * 1024 * 1024 });
    expect(await resultOf(backend, 'grow', [31])).toBe(1);
    expect(await resultOf(backend, 'grow', [32])).toBe(-1);
    expect(await resultOf(backend, 'grow_until_refused', [1])).toBe(32);
    await installWasmPlugin(backend.dataDirectory, ID, memoryModule({ min: 40 }));
    const error = await errorOf(await invoke(backend, ID, 'pages'), 404);
    expect(error.code).toBe('WASM_NOT_LOADED');
    expect(error.message).toMatch(/2 MiB/);
  });
});

describe('WASM invocations per plugin (decisions section 2)', () => {
  it('three concurrent invokes of one plugin: two run, the third gets 400 WASM_LIMIT_EXCEEDED; other plugins are unaffected', async () => {
    const backend = await start({ wasmTimeoutMs: 2000 });
    const calls = [invoke(backend, ID, 'spin'), invoke(backend, ID, 'spin'), invoke(backend, ID, 'spin')];
    const neighbour = await jsonOf<{ result: unknown }>(await invoke(backend, NEIGHBOUR, 'add', [2, 3]), 200);
    expect(neighbour.result).toBe(5);
    const answers = await Promise.all(
      calls.map(async (call) => {
        const response = await call;
        return { status: response.status, error: ((await response.json()) as { error: { code: string; message: string } }).error };
      }),
    );
    const limited = answers.filter((answer) => answer.status === 400);
    expect(limited).toHaveLength(1);
    expect(limited[0]?.error).toMatchObject({ code: 'WASM_LIMIT_EXCEEDED', message: expect.stringContaining('2') });
    expect(answers.filter((answer) => answer.status === 408)).toHaveLength(2);
    // Once they ended, the plugin may call again.
    expect(await resultOf(backend, 'pages')).toBe(1);
  });

  it('takes the limit from wasmConcurrencyPerPlugin', async () => {
    const backend = await start({ wasmTimeoutMs: 2000, wasmConcurrencyPerPlugin: 1 });
    const answers = await Promise.all([invoke(backend, ID, 'spin'), invoke(backend, ID, 'spin')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([400, 408]);
    const refused = answers.find((answer) => answer.status === 400) as Response;
    expect((await errorOf(refused, 400)).code).toBe('WASM_LIMIT_EXCEEDED');
  });

  it.each([
    ['wasmMemoryLimitBytes', 1000],
    ['wasmMemoryLimitBytes', 8 * 1024 ** 3],
    ['wasmConcurrencyPerPlugin', 0],
    ['wasmTimeoutMs', 50],
  ])('refuses %s = %s at start', async (option, value) => {
    await expect(startTestBackend({ [option]: value })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(option) });
  });
});
