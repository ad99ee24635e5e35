import { readdir } from 'node:fs/promises';
import { isValidPluginId } from '@plughost/host-sdk/core';
import { DEFAULT_RESOURCE_LIMITS } from '../../config/resource-limits.js';
import type { DataPaths } from '../../config/data-paths.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { declaresWasm, loadWasmModule, moduleFileKey, type WasmLoadResult } from './load-wasm-module.js';

/**
 * Which installed plugins have a loaded WASM module. There is no separate "load" step to forget:
 * every look-up reads the manifest and stats `plugin.wasm`, and recompiles only when the manifest
 * version or the file (inode, size, mtime) changed. So installs, overwrites, rollbacks and
 * uninstalls take effect on the next request, whichever route made them, and a compile costs
 * once per module version.
 */
export class WasmRegistry {
  private readonly cache = new Map<string, { readonly key: string; readonly result: WasmLoadResult }>();

  /**
   * @param memoryLimitBytes - the largest linear memory a module may have (see `loadWasmModule`).
   */
  constructor(
    private readonly paths: DataPaths,
    private readonly isDisabled: (id: string) => boolean = () => false,
    private readonly memoryLimitBytes: number = DEFAULT_RESOURCE_LIMITS.wasmMemoryLimitBytes,
  ) {}

  /** The module of plugin `id`, or why there is none. */
  async get(id: string): Promise<WasmLoadResult> {
    const manifest = await readInstalledManifest(this.paths, id);
    if (manifest === null) return this.forget(id, `Plugin "${id}" is not installed`);
    // Disabling a plugin stops its code at once; the record is checked on every call, not cached.
    if (this.isDisabled(id)) return { loaded: false, reason: `Plugin "${id}" is disabled; enable it in the plugin manager to run its WASM` };
    if (!declaresWasm(manifest)) return this.forget(id, `Plugin "${id}" does not declare layer "l3" and permission "wasm:execute"`);
    const folder = this.paths.pluginFolder(id);
    const fileKey = await moduleFileKey(folder);
    if (fileKey === null) return this.forget(id, `Plugin "${id}" has no plugin.wasm at its root`);
    const key = `${manifest.version}|${fileKey}`;
    const cached = this.cache.get(id);
    if (cached?.key === key) return cached.result;
    const result = await loadWasmModule(folder, this.memoryLimitBytes);
    this.cache.set(id, { key, result });
    return result;
  }

  /** The ids of the installed plugins whose module is loaded, sorted. */
  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = (await readdir(this.paths.plugins, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    // Snapshot folders (`<id>.bak-<version>`) fail the id pattern, so only installed versions count.
    const ids = names.filter((name) => isValidPluginId(name)).sort();
    const results = await Promise.all(ids.map(async (id) => ({ id, result: await this.get(id).catch(() => null) })));
    for (const id of this.cache.keys()) if (!ids.includes(id)) this.cache.delete(id);
    return results.filter(({ result }) => result?.loaded === true).map(({ id }) => id);
  }

  private forget(id: string, reason: string): WasmLoadResult {
    this.cache.delete(id);
    return { loaded: false, reason };
  }
}
