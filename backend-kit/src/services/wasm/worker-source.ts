import type { CompiledWasmModule } from './wasm-runtime.js';

/**
 * The script of a WASM call worker, run with `new Worker(WASM_WORKER_SOURCE, {eval: true})`.
 *
 * Why a string of plain JavaScript: the same code must run from the TypeScript sources under
 * vitest and from the rollup bundles (pluginctl, the demo), where no separate worker file exists
 * next to the bundle. A function's `toString()` is not safe either: transpilers may insert helper
 * calls (`__name`, ...) that do not exist inside the worker. An eval worker is a CommonJS script,
 * hence `require`.
 *
 * Protocol: `workerData` is {@link WasmWorkerData}; the worker posts {@link WasmWorkerMessage}s:
 * any number of `log`, then exactly one `result` or `trap`.
 */
export const WASM_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { module, exportName, args, maxLogLines, maxLogBytes } = workerData;
const decoder = new TextDecoder('utf-8');
let memory;
let lines = 0;
let dropped = 0;

function emit(text) {
  if (lines >= maxLogLines) { dropped++; return; }
  lines++;
  parentPort.postMessage({ type: 'log', text });
}

function log(ptr, len) {
  if (memory === undefined) throw new Error('env.log needs the module to export its memory as "memory"');
  const start = Number(ptr) >>> 0;
  const length = Number(len) >>> 0;
  const size = memory.buffer.byteLength;
  if (start + length > size) throw new Error('env.log: bytes ' + start + '..' + (start + length) + ' are outside the memory (' + size + ' bytes)');
  const shown = Math.min(length, maxLogBytes);
  let text = decoder.decode(new Uint8Array(memory.buffer, start, shown));
  if (shown < length) text += ' [truncated ' + (length - shown) + ' bytes]';
  emit(text);
}

function logNumber(value) {
  emit(String(value));
}

try {
  const instance = new WebAssembly.Instance(module, { env: { log, log_number: logNumber } });
  if (instance.exports.memory instanceof WebAssembly.Memory) memory = instance.exports.memory;
  const target = instance.exports[exportName];
  if (typeof target !== 'function') throw new Error('Export "' + exportName + '" is not a function');
  const value = target(...args);
  parentPort.postMessage({ type: 'result', value, dropped });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  parentPort.postMessage({ type: 'trap', message, dropped });
}
`;

/** What the worker receives. `WebAssembly.Module` is cloneable to workers, so nothing compiles twice. */
export interface WasmWorkerData {
  readonly module: CompiledWasmModule;
  readonly exportName: string;
  readonly args: readonly (number | bigint)[];
  /** At most this many log lines per call; later ones are counted as dropped. */
  readonly maxLogLines: number;
  /** At most this many bytes of one `env.log` text; the rest is cut. */
  readonly maxLogBytes: number;
}

/** A message from the worker. */
export type WasmWorkerMessage =
  | { readonly type: 'log'; readonly text: string }
  | { readonly type: 'result'; readonly value: unknown; readonly dropped: number }
  | { readonly type: 'trap'; readonly message: string; readonly dropped: number };
