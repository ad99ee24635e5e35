import { PluginHostError } from '@plughost/host-sdk/core';

/**
 * A counting semaphore for WASM workers: at most `concurrency` run at once, at most `maxWaiting`
 * wait. Each worker is a V8 isolate with its own heap, so without a cap a burst of calls could
 * exhaust the machine's memory; a full queue answers at once instead of growing without bound.
 */
export class WorkerSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  /** Resolves with a release function once a slot is free; `release` must be called exactly once. */
  async acquire(): Promise<() => void> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new PluginHostError('WASM_TIMEOUT', `Too many WASM calls are waiting (${this.maxWaiting}); try again later`);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next caller, so `running` stays as it is.
      if (next) next();
      else this.running--;
    };
  }
}
