import type { Stats } from 'node:fs';
import { matchesStamp, type FileStamp } from './file-stamp.js';

/** Limits of a {@link StampedCache}. */
export interface StampedCacheLimits {
  /** Most entries kept. */
  readonly maxEntries: number;
  /** Most bytes kept, as `sizeOf` counts them (default: no byte limit). */
  readonly maxBytes?: number;
}

interface Entry<Value> {
  readonly stamp: FileStamp;
  readonly value: Value;
  readonly bytes: number;
}

/**
 * What the backend learnt from reading a file (a parsed JSON object, whether a manifest is valid,
 * a small file's bytes), kept under the file's path with the {@link FileStamp} of the version read.
 * A value is given back only while a fresh `stat` of the path still shows that version, so a hot
 * read costs one `stat` instead of open, read and close, and nothing stale is ever served: a file
 * replaced, edited or removed misses. The least recently used entries go first past the limits.
 */
export class StampedCache<Value> {
  readonly #entries = new Map<string, Entry<Value>>();
  #bytes = 0;

  constructor(private readonly limits: StampedCacheLimits) {}

  /** The value read from `key`'s file when `stats` (taken now) show the same version, else undefined. */
  get(key: string, stats: Stats): Value | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (!matchesStamp(stats, entry.stamp)) {
      this.delete(key);
      return undefined;
    }
    // Re-inserted: the Map's order is the order of use, oldest first.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value`, read from the version of `key`'s file that `stamp` describes (take both from one open handle). */
  set(key: string, stamp: FileStamp, value: Value, bytes = 0): void {
    this.delete(key);
    if (this.limits.maxBytes !== undefined && bytes > this.limits.maxBytes) return;
    this.#entries.set(key, { stamp, value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.limits.maxEntries && (this.limits.maxBytes === undefined || this.#bytes <= this.limits.maxBytes)) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Entries and bytes kept now. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}
