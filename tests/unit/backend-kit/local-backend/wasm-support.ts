/**
 * Helpers of the WASM route tests: installed plugins written straight into the data folder, and
 * the test module with one export per behaviour.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackendLogger } from '../../../../backend-kit/src/http/logger.js';
import { sampleManifest } from '../../../support/plugin-package.js';
import { buildWasmModule, op } from '../../../support/wasm-builder.js';

/** Writes `plugins/<id>/manifest.json` (a WASM-only manifest unless overridden) and `plugin.wasm`. */
export async function installWasmPlugin(dataDirectory: string, id: string, wasm: Uint8Array | null, manifest: Record<string, unknown> = {}): Promise<void> {
  const folder = join(dataDirectory, 'plugins', id);
  await mkdir(folder, { recursive: true });
  const { entry: _entry, ...base } = sampleManifest({ id, layers: ['l3'], permissions: ['wasm:execute'] });
  await writeFile(join(folder, 'manifest.json'), JSON.stringify({ ...base, ...manifest }, null, 2));
  if (wasm) await writeFile(join(folder, 'plugin.wasm'), wasm);
}

const GREETING = 'hello from wasm ✓';

/**
 * The main test module. Imports `env.log` (function 0) and `env.log_number` (function 1), exports
 * its memory, and holds the greeting at offset 16.
 */
export const TEST_MODULE = buildWasmModule({
  imports: [
    { module: 'env', name: 'log', params: ['i32', 'i32'] },
    { module: 'env', name: 'log_number', params: ['f64'] },
  ],
  memory: { min: 1, export: 'memory' },
  data: [{ offset: 16, bytes: GREETING }],
  functions: [
    { export: 'on_load', results: ['i32'], body: [op.i32Const(42)] },
    { export: 'add', params: ['i32', 'i32'], results: ['i32'], body: [op.localGet(0), op.localGet(1), op.i32Add] },
    { export: 'mul64', params: ['i64', 'i64'], results: ['i64'], body: [op.localGet(0), op.localGet(1), op.i64Mul] },
    { export: 'big64', results: ['i64'], body: [op.i64Const(2n ** 60n + 1n)] },
    { export: 'mul_f64', params: ['f64', 'f64'], results: ['f64'], body: [op.localGet(0), op.localGet(1), op.f64Mul] },
    { export: 'add_f32', params: ['f32', 'f32'], results: ['f32'], body: [op.localGet(0), op.localGet(1), op.f32Add] },
    {
      export: 'greet',
      body: [op.i32Const(16), op.i32Const(new TextEncoder().encode(GREETING).length), op.call(0), op.f64Const(1.5), op.call(1)],
    },
    { export: 'log_out_of_bounds', body: [op.i32Const(65530), op.i32Const(100), op.call(0)] },
    { export: 'spin', body: [op.loop, op.br(0), op.end] },
    { export: 'crash', body: [op.unreachable] },
    { export: 'nothing', body: [] },
  ],
  exportedGlobal: { name: 'answer', value: 7 },
});

/** The greeting `greet` logs. */
export const TEST_GREETING = GREETING;

/** A module that asks for WASI, which the ABI does not offer. */
export const WASI_MODULE = buildWasmModule({
  imports: [{ module: 'wasi_snapshot_preview1', name: 'fd_write', params: ['i32', 'i32', 'i32', 'i32'], results: ['i32'] }],
  functions: [{ export: 'on_load', results: ['i32'], body: [op.i32Const(1)] }],
});

/** A logger that keeps every entry. */
export function capturingLogger(): BackendLogger & { entries: { level: string; message: string; fields?: Readonly<Record<string, unknown>> }[] } {
  const entries: { level: string; message: string; fields?: Readonly<Record<string, unknown>> }[] = [];
  const record = (level: string) => (message: string, fields?: Readonly<Record<string, unknown>>) => {
    entries.push(fields ? { level, message, fields } : { level, message });
  };
  return { entries, info: record('info'), warn: record('warn'), error: record('error') };
}

/** Memory instructions the shared builder does not name. */
export const memoryOp = {
  /** `memory.size` of memory 0, in pages. */
  size: [0x3f, 0x00],
  /** `memory.grow` of memory 0: pushes the old size in pages, or -1 when it cannot grow. */
  grow: [0x40, 0x00],
  i32Eq: [0x46],
  /** `if` with no result. */
  ifEmpty: [0x04, 0x40],
  brIf: (depth: number) => [0x0d, depth],
} as const;

/**
 * A module that grows its memory on request (each call runs in a fresh instance, starting at
 * `min` pages): `grow(pages)` answers what `memory.grow` gave (-1 when refused),
 * `grow_until_refused(step)` grows by `step` pages until refused and answers the size reached,
 * `grow_or_trap(pages)` traps when the growth was refused (what a compiled allocator does when it
 * runs out of memory), `spin` never returns.
 */
export function memoryModule(memory: { min: number; max?: number; exported?: boolean } = { min: 1 }): Uint8Array {
  return buildWasmModule({
    memory: { min: memory.min, ...(memory.max !== undefined ? { max: memory.max } : {}), ...(memory.exported === false ? {} : { export: 'memory' }) },
    functions: [
      { export: 'grow', params: ['i32'], results: ['i32'], body: [op.localGet(0), memoryOp.grow] },
      { export: 'pages', results: ['i32'], body: [memoryOp.size] },
      {
        export: 'grow_until_refused',
        params: ['i32'],
        results: ['i32'],
        body: [op.block, op.loop, op.localGet(0), memoryOp.grow, op.i32Const(-1), memoryOp.i32Eq, memoryOp.brIf(1), op.br(0), op.end, op.end, memoryOp.size],
      },
      {
        export: 'grow_or_trap',
        params: ['i32'],
        body: [op.localGet(0), memoryOp.grow, op.i32Const(-1), memoryOp.i32Eq, memoryOp.ifEmpty, op.unreachable, op.end],
      },
      { export: 'spin', body: [op.loop, op.br(0), op.end] },
    ],
  });
}
