import { Worker } from 'node:worker_threads';
import { PluginHostError } from '@plughost/host-sdk/core';
import { WASM_WORKER_SOURCE, type WasmWorkerData, type WasmWorkerMessage } from './worker-source.js';

/** Limits of one worker. */
export interface WasmWorkerLimits {
  /** Wall-clock limit of the call, worker start-up included; then the worker is terminated. */
  readonly timeoutMs: number;
  /** V8 heap limits of the worker (JS objects only; a module's memory is capped by its own maximum, see `capMemory`). */
  readonly resourceLimits: NonNullable<ConstructorParameters<typeof Worker>[1]>['resourceLimits'];
}

/** What a finished call gives back. */
export interface WasmWorkerResult {
  readonly value: unknown;
  /** Log lines the per-call limit dropped. */
  readonly droppedLogLines: number;
}

/**
 * Runs one export in a fresh worker. Resolves with the returned value; rejects with 422
 * `WASM_TRAP` (trap, host function error, worker crash or out of memory) or 408 `WASM_TIMEOUT`
 * (the worker is terminated: V8 interrupts even a tight WASM loop, so the event loop of the backend
 * never waits on plugin code). `onLog` receives each `env.log`/`env.log_number` line.
 */
export function runWasmWorker(data: WasmWorkerData, limits: WasmWorkerLimits, onLog: (text: string) => void): Promise<WasmWorkerResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(WASM_WORKER_SOURCE, {
      eval: true,
      workerData: data,
      ...(limits.resourceLimits ? { resourceLimits: limits.resourceLimits } : {}),
      // The worker needs neither the backend's environment nor its stdin.
      env: {},
      stdin: false,
    });
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => {
      finish(() => reject(new PluginHostError('WASM_TIMEOUT', `The call of "${data.exportName}" ran longer than ${limits.timeoutMs} ms and was stopped`)));
    }, limits.timeoutMs);

    worker.on('message', (message: WasmWorkerMessage) => {
      if (settled) return;
      if (message.type === 'log') onLog(message.text);
      else if (message.type === 'result') finish(() => resolve({ value: message.value, droppedLogLines: message.dropped }));
      else finish(() => reject(new PluginHostError('WASM_TRAP', `WASM trap in "${data.exportName}": ${message.message}`)));
    });
    worker.on('error', (error: Error) => {
      finish(() => reject(new PluginHostError('WASM_TRAP', `WASM worker failed in "${data.exportName}": ${error.message}`)));
    });
    worker.on('exit', (code) => {
      finish(() => reject(new PluginHostError('WASM_TRAP', `WASM worker of "${data.exportName}" exited (code ${code}) without a result`)));
    });
  });
}
