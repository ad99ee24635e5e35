import { PluginHostError } from '@plughost/host-sdk/core';
import { DEFAULT_RESOURCE_LIMITS } from '../../config/resource-limits.js';
import type { BackendLogger } from '../../http/logger.js';
import type { DataPaths } from '../../config/data-paths.js';
import { runWasmWorker, type WasmWorkerLimits } from './run-wasm-worker.js';
import { WasmRegistry, type WasmDevPlugins } from './wasm-registry.js';
import type { CompiledWasmModule } from './wasm-runtime.js';
import type { WasmSignature } from './wasm-value-type.js';
import { toJsonResult, toWasmArguments, type JsonWasmResult, type WasmValue } from './wasm-values.js';
import { WorkerSlots } from './worker-slots.js';

/** Limits of WASM calls; every field has a default (see {@link DEFAULT_WASM_LIMITS}). */
export interface WasmServiceOptions {
  /** Plugins the user disabled: their module is neither listed nor callable. Default none. */
  readonly isDisabled?: (id: string) => boolean;
  /**
   * The dev plugins (development mode): their modules are fetched from their dev servers, listed
   * and callable like installed ones, and shadow an installed plugin of the same id. Default none.
   */
  readonly devPlugins?: WasmDevPlugins;
  /** Time limit of one call in milliseconds (default 5000). */
  readonly timeoutMs?: number;
  /** Largest linear memory of a module in bytes (default 64 MiB); `memory.grow` past it answers -1. */
  readonly memoryLimitBytes?: number;
  /** Calls of one plugin running or waiting at once (default 2); one more is 400 `WASM_LIMIT_EXCEEDED`. */
  readonly concurrencyPerPlugin?: number;
  /** Workers running at once across all plugins (default 4); further calls wait. */
  readonly concurrency?: number;
  /** Calls waiting for a worker (default 32); beyond that 408 `WASM_TIMEOUT` at once. */
  readonly maxWaiting?: number;
  /** Log lines one call may write (default 100). */
  readonly maxLogLines?: number;
  /** Bytes of one log line (default 4096). */
  readonly maxLogBytes?: number;
  /** V8 heap limits of each worker. */
  readonly resourceLimits?: WasmWorkerLimits['resourceLimits'];
}

/** The defaults of {@link WasmServiceOptions}. */
export const DEFAULT_WASM_LIMITS = {
  timeoutMs: DEFAULT_RESOURCE_LIMITS.wasmTimeoutMs,
  memoryLimitBytes: DEFAULT_RESOURCE_LIMITS.wasmMemoryLimitBytes,
  concurrencyPerPlugin: DEFAULT_RESOURCE_LIMITS.wasmConcurrencyPerPlugin,
  concurrency: 4,
  maxWaiting: 32,
  maxLogLines: 100,
  maxLogBytes: 4096,
  resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, codeRangeSizeMb: 64, stackSizeMb: 4 },
} as const;

/** Lists loaded WASM plugins and calls their exports. */
export interface WasmService {
  /** Ids of the plugins (installed, and dev plugins) with a loaded module. */
  list(): Promise<string[]>;
  /** Calls `exportName` of plugin `id` with JSON numbers; the result as JSON (see `wasm-values.ts`). */
  invoke(id: string, exportName: string, args: unknown): Promise<JsonWasmResult>;
}

/** Creates the WASM service over the plugin folders of `paths`. */
export function createWasmService(paths: DataPaths, logger: BackendLogger, options: WasmServiceOptions = {}): WasmService {
  const limits = { ...DEFAULT_WASM_LIMITS, ...options };
  const registry = new WasmRegistry(paths, options.isDisabled, limits.memoryLimitBytes, options.devPlugins);
  const slots = new WorkerSlots(limits.concurrency, limits.maxWaiting);
  /** Calls in progress per plugin, waiting for a worker included. */
  const inProgress = new Map<string, number>();

  return {
    list: () => registry.list(),
    async invoke(id, exportName, args) {
      const loaded = await registry.get(id);
      if (!loaded.loaded) throw new PluginHostError('WASM_NOT_LOADED', `No WASM module is loaded for "${id}": ${loaded.reason}`);
      const target = loaded.info.exports.get(exportName);
      if (target?.kind !== 'function' || target.signature === undefined) {
        throw new PluginHostError('WASM_EXPORT_NOT_FOUND', `The WASM module of "${id}" has no exported function "${exportName}"`);
      }
      const values = toWasmArguments(args, target.signature, exportName);
      const running = inProgress.get(id) ?? 0;
      // Refused rather than queued: a plugin firing calls in a loop must not fill the shared
      // worker queue and delay every other plugin's calls.
      if (running >= limits.concurrencyPerPlugin) {
        throw new PluginHostError(
          'WASM_LIMIT_EXCEEDED',
          `Plugin "${id}" already has ${running} WASM calls running, the most one plugin may have at once (${limits.concurrencyPerPlugin}); wait for one to finish`,
          { limit: 'wasmConcurrencyPerPlugin', pluginId: id },
        );
      }
      inProgress.set(id, running + 1);
      try {
        return await runCall(id, exportName, loaded.module, values, target.signature);
      } finally {
        const left = (inProgress.get(id) ?? 1) - 1;
        if (left === 0) inProgress.delete(id);
        else inProgress.set(id, left);
      }
    },
  };

  /** Runs one call in a worker once a slot is free. */
  async function runCall(
    id: string,
    exportName: string,
    module: CompiledWasmModule,
    values: readonly WasmValue[],
    signature: WasmSignature,
  ): Promise<JsonWasmResult> {
    const release = await slots.acquire();
    try {
      const outcome = await runWasmWorker(
        { module, exportName, args: values, maxLogLines: limits.maxLogLines, maxLogBytes: limits.maxLogBytes },
        { timeoutMs: limits.timeoutMs, resourceLimits: limits.resourceLimits },
        (text) => logger.info(`[wasm ${id}] ${text}`, { pluginId: id, exportName, source: 'wasm' }),
      );
      if (outcome.droppedLogLines > 0) {
        logger.warn(`[wasm ${id}] ${outcome.droppedLogLines} log line(s) dropped (limit ${limits.maxLogLines} per call)`, { pluginId: id, exportName });
      }
      return toJsonResult(outcome.value, signature);
    } finally {
      release();
    }
  }
}
