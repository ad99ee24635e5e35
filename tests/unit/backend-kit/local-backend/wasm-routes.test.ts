import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../../backend-kit/src/openapi/build-document.js';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { buildWasmModule, isValidWasm } from '../../../support/wasm-builder.js';
import { errorOf, jsonOf } from './plugins-support.js';
import { TEST_GREETING, TEST_MODULE, WASI_MODULE, capturingLogger, installWasmPlugin } from './wasm-support.js';

const ID = 'com.example.wasm';
let running: TestBackend | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: Parameters<typeof startTestBackend>[0] = {}): Promise<TestBackend> {
  running = await startTestBackend(options);
  await installWasmPlugin(running.dataDirectory, ID, TEST_MODULE);
  return running;
}

function invoke(backend: TestBackend, id: string, body: unknown): Promise<Response> {
  return backend.api(`/api/plugins/wasm/${id}/invoke`, { json: body });
}

async function resultOf(backend: TestBackend, exportName: string, args?: unknown[]): Promise<unknown> {
  const body = await jsonOf<{ ok: boolean; result: unknown }>(await invoke(backend, ID, { exportName, ...(args ? { args } : {}) }), 200);
  expect(body.ok).toBe(true);
  return body.result;
}

describe('GET /api/plugins/wasm', () => {
  it('lists only installed plugins with l3, wasm:execute and a plugin.wasm that loads', async () => {
    expect(isValidWasm(TEST_MODULE)).toBe(true);
    const backend = await start();
    await installWasmPlugin(backend.dataDirectory, 'com.example.no-permission', TEST_MODULE, { permissions: [] });
    await installWasmPlugin(backend.dataDirectory, 'com.example.no-layer', TEST_MODULE, { layers: ['l2'], entry: { frontend: 'index.html' } });
    await installWasmPlugin(backend.dataDirectory, 'com.example.no-file', null);
    await installWasmPlugin(backend.dataDirectory, 'com.example.invalid', new TextEncoder().encode('not wasm at all'));
    await installWasmPlugin(backend.dataDirectory, 'com.example.wasi', WASI_MODULE);
    await installWasmPlugin(backend.dataDirectory, 'com.example.second', TEST_MODULE);
    const hugeMemory = buildWasmModule({ memory: { min: 2048 }, functions: [{ export: 'on_load', body: [] }] });
    expect(isValidWasm(hugeMemory)).toBe(true);
    await installWasmPlugin(backend.dataDirectory, 'com.example.huge-memory', hugeMemory);

    const response = await backend.api('/api/plugins/wasm');
    expect(await jsonOf(response, 200)).toEqual(['com.example.second', ID]);
    expect((await backend.api('/api/plugins/wasm', { token: null })).status).toBe(401);
  });

  it('follows installs, replacements and removals', async () => {
    const backend = await start();
    expect(await jsonOf(await backend.api('/api/plugins/wasm'), 200)).toEqual([ID]);
    await installWasmPlugin(backend.dataDirectory, 'com.example.later', TEST_MODULE);
    expect(await jsonOf(await backend.api('/api/plugins/wasm'), 200)).toEqual(['com.example.later', ID]);
    // Replaced by a module that does not compile: no longer loaded.
    await installWasmPlugin(backend.dataDirectory, 'com.example.later', new Uint8Array([0, 0x61, 0x73, 0x6d, 9]), { version: '1.0.1' });
    expect(await jsonOf(await backend.api('/api/plugins/wasm'), 200)).toEqual([ID]);
  });
});

describe('POST /api/plugins/wasm/:id/invoke', () => {
  it('calls on_load by default, with or without a body', async () => {
    const backend = await start();
    expect(await jsonOf(await invoke(backend, ID, {}), 200)).toEqual({ ok: true, result: 42 });
    expect(await jsonOf(await backend.api(`/api/plugins/wasm/${ID}/invoke`, { method: 'POST' }), 200)).toEqual({ ok: true, result: 42 });
  });

  it('passes numbers in and out for i32, i64, f32 and f64', async () => {
    const backend = await start();
    expect(await resultOf(backend, 'add', [2, 3])).toBe(5);
    expect(await resultOf(backend, 'add', [2 ** 31 - 1, 1])).toBe(-(2 ** 31));
    expect(await resultOf(backend, 'mul64', [3_000_000_000, 3])).toBe(9_000_000_000);
    expect(await resultOf(backend, 'mul64', [-4, 5])).toBe(-20);
    expect(await resultOf(backend, 'big64')).toBe((2n ** 60n + 1n).toString());
    expect(await resultOf(backend, 'mul_f64', [1.5, 0.25])).toBe(0.375);
    expect(await resultOf(backend, 'add_f32', [0.5, 0.25])).toBe(0.75);
    expect(await resultOf(backend, 'nothing')).toBeNull();
  });

  it('forwards env.log and env.log_number to the backend logger with the plugin id', async () => {
    const logger = capturingLogger();
    const backend = await start({ logger });
    expect(await resultOf(backend, 'greet')).toBeNull();
    const wasmLines = logger.entries.filter((entry) => entry.fields?.pluginId === ID);
    expect(wasmLines.map((entry) => entry.message)).toEqual([`[wasm ${ID}] ${TEST_GREETING}`, `[wasm ${ID}] 1.5`]);
    expect(wasmLines[0]?.fields).toMatchObject({ pluginId: ID, exportName: 'greet' });
  });

  it('turns a log call outside the memory into a trap', async () => {
    const backend = await start();
    const error = await errorOf(await invoke(backend, ID, { exportName: 'log_out_of_bounds' }), 422);
    expect(error.code).toBe('WASM_TRAP');
    expect(error.message).toMatch(/outside the memory/);
  });

  it('stops an endless loop with 408 after wasmTimeoutMs while other requests are answered', async () => {
    const backend = await start({ wasmTimeoutMs: 1500 });
    const order: string[] = [];
    const loop = invoke(backend, ID, { exportName: 'spin' }).then(async (response) => {
      order.push('loop');
      return errorOf(response, 408);
    });
    const health = await backend.api('/api/health', { token: null });
    expect(health.status).toBe(200);
    order.push('health');
    expect(await resultOf(backend, 'add', [20, 22])).toBe(42);
    order.push('quick invoke');
    const error = await loop;
    expect(error.code).toBe('WASM_TIMEOUT');
    expect(error.message).toContain('1500');
    expect(order).toEqual(['health', 'quick invoke', 'loop']);
    // The backend is still fine afterwards.
    expect(await resultOf(backend, 'on_load')).toBe(42);
  });

  it('answers a trap with 422 WASM_TRAP and its message', async () => {
    const backend = await start();
    const error = await errorOf(await invoke(backend, ID, { exportName: 'crash' }), 422);
    expect(error.code).toBe('WASM_TRAP');
    expect(error.message).toMatch(/unreachable/);
  });

  it('answers 404 WASM_EXPORT_NOT_FOUND for a missing export or one that is not a function', async () => {
    const backend = await start();
    for (const exportName of ['missing', 'answer', 'memory']) {
      const error = await errorOf(await invoke(backend, ID, { exportName }), 404);
      expect(error.code).toBe('WASM_EXPORT_NOT_FOUND');
    }
  });

  it('answers 404 WASM_NOT_LOADED when the plugin has no loaded module, naming why', async () => {
    const backend = await start();
    await installWasmPlugin(backend.dataDirectory, 'com.example.page', null, { layers: ['l2'], permissions: [], entry: { frontend: 'index.html' } });
    await installWasmPlugin(backend.dataDirectory, 'com.example.wasi', WASI_MODULE);
    const cases: [string, RegExp][] = [
      ['com.example.absent', /not installed/],
      ['com.example.page', /"l3"/],
      ['com.example.wasi', /wasi_snapshot_preview1\.fd_write/],
    ];
    for (const [id, reason] of cases) {
      const error = await errorOf(await invoke(backend, id, {}), 404);
      expect(error.code).toBe('WASM_NOT_LOADED');
      expect(error.message).toMatch(reason);
    }
  });

  it('refuses arguments that are not the numbers the export takes with 400', async () => {
    const backend = await start();
    const bad: unknown[] = [
      { exportName: 'add', args: ['2', 3] },
      { exportName: 'add', args: [2] },
      { exportName: 'add', args: [2, 3, 4] },
      { exportName: 'add', args: [1.5, 3] },
      { exportName: 'add', args: [2 ** 32, 0] },
      { exportName: 'add', args: 5 },
      { exportName: 'add', args: [null, 1] },
      { exportName: 'mul64', args: [2 ** 53, 1] },
      { exportName: 42 },
      { exportName: '' },
      { exportName: 'add', args: [1, 2], extra: true },
      [1, 2],
    ];
    for (const body of bad) {
      const error = await errorOf(await invoke(backend, ID, body), 400);
      expect(error.code, JSON.stringify(body)).toBe('INVALID_ARGUMENT');
    }
    expect((await invoke(backend, 'Not..AnId', {})).status).toBe(400);
  });
});

describe('WASM routes in the OpenAPI description', () => {
  it('answers with bodies the description allows', async () => {
    const document = buildOpenApiDocument();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(document as unknown as Record<string, unknown>, 'openapi.json');
    const check = (path: string, method: string, status: number, body: unknown): void => {
      const pointer = ['paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema']
        .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
      const validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
      expect(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const backend = await start();
    const invokePath = '/api/plugins/wasm/{id}/invoke';
    check('/api/plugins/wasm', 'get', 200, await jsonOf(await backend.api('/api/plugins/wasm'), 200));
    check(invokePath, 'post', 200, await jsonOf(await invoke(backend, ID, {}), 200));
    check(invokePath, 'post', 200, await jsonOf(await invoke(backend, ID, { exportName: 'big64' }), 200));
    check(invokePath, 'post', 200, await jsonOf(await invoke(backend, ID, { exportName: 'nothing' }), 200));
    check(invokePath, 'post', 400, await jsonOf(await invoke(backend, ID, { exportName: 'add', args: ['x', 1] }), 400));
    check(invokePath, 'post', 404, await jsonOf(await invoke(backend, ID, { exportName: 'missing' }), 404));
    check(invokePath, 'post', 422, await jsonOf(await invoke(backend, ID, { exportName: 'crash' }), 422));
  });
});

describe('a disabled plugin', () => {
  it('has its WASM neither listed nor callable once the user disables it, and back when enabled', async () => {
    const backend = await start();
    await backend.backend.plugins.reload();
    expect(await resultOf(backend, 'on_load')).toBe(42);
    const disabled = await backend.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled: false } });
    expect(disabled.status).toBe(200);
    expect(await jsonOf(await backend.api('/api/plugins/wasm'), 200)).toEqual([]);
    const refused = await errorOf(await invoke(backend, ID, { exportName: 'on_load' }), 404);
    expect(refused.code).toBe('WASM_NOT_LOADED');
    expect(refused.message).toMatch(/disabled/);
    await backend.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled: true } });
    expect(await resultOf(backend, 'on_load')).toBe(42);
  });
});
