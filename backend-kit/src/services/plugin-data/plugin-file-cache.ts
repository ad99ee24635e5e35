import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { currentStats, stampOf } from '../file-stamp.js';
import { StampedCache } from '../stamped-cache.js';
import { validatorsOf, type FileValidators } from './file-validators.js';
import type { OpenedPluginFile } from './open-plugin-file.js';

/** A plugin file held in memory, with what its answers carry. */
export interface CachedPluginFile {
  readonly body: Buffer;
  readonly validators: FileValidators;
}

/** Limits of a {@link PluginFileCache}. */
export interface PluginFileCacheLimits {
  /** Largest file kept; larger ones are streamed from disk every time. Default 256 KiB. */
  readonly maxFileBytes: number;
  /** Most bytes kept in all. Default 32 MiB. */
  readonly maxBytes: number;
  /** Most files kept. Default 4096. */
  readonly maxFiles: number;
}

/** Defaults of {@link PluginFileCacheLimits}. */
export const PLUGIN_FILE_CACHE_LIMITS: PluginFileCacheLimits = { maxFileBytes: 256 * 1024, maxBytes: 32 * 1024 * 1024, maxFiles: 4096 };

/**
 * The small plugin files the file route served, kept in memory (frames ask for the same page,
 * scripts and styles again at every start). A file enters only after `openPluginFile` checked it
 * and only with the bytes read through that checked handle; it is served from memory only while
 * an `lstat` of its path still shows that version (device, inode, size, modification and change
 * times), so an update, a rollback or any edit is seen at once. `lstat` does not follow a link
 * in the last segment; a path that now leads anywhere else (a folder swapped for a link on the
 * way) finds another inode and takes the full checks again.
 */
export class PluginFileCache {
  readonly #files: StampedCache<CachedPluginFile>;
  readonly #limits: PluginFileCacheLimits;

  constructor(limits: Partial<PluginFileCacheLimits> = {}) {
    this.#limits = { ...PLUGIN_FILE_CACHE_LIMITS, ...limits };
    this.#files = new StampedCache({ maxEntries: this.#limits.maxFiles, maxBytes: this.#limits.maxBytes });
  }

  /** The kept version of `relativePath` in `folder` when it is still the one on disk, else null. */
  fresh(folder: string, relativePath: string): CachedPluginFile | null {
    const path = join(folder, relativePath);
    let stats: Stats | undefined;
    try {
      stats = currentStats(path, { follow: false });
    } catch {
      // ENOTDIR, EACCES, ...: whatever is there now, the full checks decide.
      stats = undefined;
    }
    if (stats === undefined || !stats.isFile()) {
      this.#files.delete(path);
      return null;
    }
    return this.#files.get(path, stats) ?? null;
  }

  /**
   * Reads a checked, opened file whole when it is small enough, keeps it, and returns it; null
   * for a larger file, or one that changed size while it was read (both are streamed instead).
   * The handle stays open either way: its owner closes it.
   */
  async remember(folder: string, relativePath: string, file: OpenedPluginFile): Promise<CachedPluginFile | null> {
    const { size } = file.stats;
    if (size > this.#limits.maxFileBytes) return null;
    const body = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await file.handle.read(body, filled, size - filled, filled);
      if (bytesRead === 0) return null;
      filled += bytesRead;
    }
    const cached: CachedPluginFile = { body, validators: validatorsOf(file.stats) };
    this.#files.set(join(folder, relativePath), stampOf(file.stats), cached, size);
    return cached;
  }
}
