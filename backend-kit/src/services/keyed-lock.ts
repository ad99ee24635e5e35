/**
 * Serializes async work per key: `run(key, fn)` starts `fn` only after every earlier `fn` of the
 * same key has settled. Different keys run in parallel. Used so one plugin's settings writes,
 * cache writes, installs and rollbacks never interleave.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once the key is free; the key is held until `task` settles. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    const tail = current.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      // Forget the key once nothing else queued behind this task, so the map does not grow.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Number of keys with work queued or running (for tests and diagnostics). */
  get activeKeys(): number {
    return this.#tails.size;
  }
}
