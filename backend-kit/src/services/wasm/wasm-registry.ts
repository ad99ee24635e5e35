import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { WASM_MODULE_FILE, isPluginHostError, isValidPluginId } from '@plughost/host-sdk/core';
import { DEFAULT_RESOURCE_LIMITS } from '../../config/resource-limits.js';
import type { DataPaths } from '../../config/data-paths.js';
import type { DevPluginService } from '../dev-plugins/dev-plugin-service.js';
import { findKnownPlugin, type KnownPlugin } from '../plugin-data/known-plugin.js';
import { compileWasmModule, declaresWasm, loadWasmModule, moduleFileKey, type WasmLoadResult } from './load-wasm-module.js';

/** What the registry needs of the dev plugins (development mode): their list, manifests and files. */
export type WasmDevPlugins = Pick<DevPluginService, 'has' | 'manifest' | 'file' | 'list'>;

/** One version of a plugin's module: what it is cached under, and how to compile it. */
interface ModuleSource {
  readonly key: string;
  compile(): Promise<WasmLoadResult>;
}

/**
 * Which plugins have a loaded WASM module: installed plugins, and dev plugins in development mode
 * (a dev plugin shadows an installed plugin of its id, as for its files). There is no separate
 * "load" step to forget: every look-up reads the manifest and finds the module, and recompiles
 * only when it changed. An installed module is found by a `stat` of `plugin.wasm` (recompiled
 * when the manifest version or the file's inode, size or mtime changed); a dev plugin's manifest
 * and `plugin.wasm` come from its dev server at every look-up (through the dev plugin service's
 * file fetch: the file route's path rules, size limit and no redirects), and it is recompiled only
 * when a hash of the bytes changed. So installs, overwrites, rollbacks, uninstalls and rebuilds
 * take effect on the next request, and a compile costs once per module version.
 */
export class WasmRegistry {
  private readonly cache = new Map<string, { readonly key: string; readonly result: WasmLoadResult }>();

  /**
   * @param memoryLimitBytes - the largest linear memory a module may have (see `compileWasmModule`).
   * @param devPlugins - the dev plugins of a backend in development mode; default none.
   */
  constructor(
    private readonly paths: DataPaths,
    private readonly isDisabled: (id: string) => boolean = () => false,
    private readonly memoryLimitBytes: number = DEFAULT_RESOURCE_LIMITS.wasmMemoryLimitBytes,
    private readonly devPlugins?: WasmDevPlugins,
  ) {}

  /**
   * The module of plugin `id`, or why there is none. For a dev plugin whose dev server fails, the
   * error the file route would answer (`PLUGIN_LOAD_FAILED`, `PLUGIN_TIMEOUT`, `INVALID_MANIFEST`).
   */
  async get(id: string): Promise<WasmLoadResult> {
    let plugin: KnownPlugin;
    try {
      plugin = await findKnownPlugin({ paths: this.paths, devPlugins: this.devPlugins }, id);
    } catch (error) {
      if (isPluginHostError(error) && error.code === 'PLUGIN_NOT_FOUND') return this.forget(id, `Plugin "${id}" is not installed`);
      throw error;
    }
    // Disabling a plugin stops its code at once; the record is checked on every call, not cached.
    // A dev plugin is never disabled (it is not installed; its dev server running is the switch).
    if (!plugin.dev && this.isDisabled(id)) return { loaded: false, reason: `Plugin "${id}" is disabled; enable it in the plugin manager to run its WASM` };
    if (!declaresWasm(plugin.manifest)) return this.forget(id, `Plugin "${id}" does not declare layer "l3" and permission "wasm:execute"`);
    const source = plugin.dev && this.devPlugins ? await this.devModule(this.devPlugins, id) : await this.installedModule(id, plugin.manifest.version);
    if (source === null) {
      return this.forget(id, `Plugin "${id}" has no ${WASM_MODULE_FILE} at its root${plugin.dev ? " (of its dev server's build output)" : ''}`);
    }
    const cached = this.cache.get(id);
    if (cached?.key === source.key) return cached.result;
    const result = await source.compile();
    this.cache.set(id, { key: source.key, result });
    return result;
  }

  /** The ids of the plugins (installed, and dev ones) whose module is loaded, sorted. */
  async list(): Promise<string[]> {
    const devIds = this.devPlugins ? (await this.devPlugins.list()).map((plugin) => plugin.id) : [];
    const ids = [...new Set([...(await this.installedIds()), ...devIds])].sort();
    const results = await Promise.all(ids.map(async (id) => ({ id, result: await this.get(id).catch(() => null) })));
    for (const id of this.cache.keys()) if (!ids.includes(id)) this.cache.delete(id);
    return results.filter(({ result }) => result?.loaded === true).map(({ id }) => id);
  }

  private async installedIds(): Promise<string[]> {
    let names: string[];
    try {
      names = (await readdir(this.paths.plugins, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    // Snapshot folders (`<id>.bak-<version>`) fail the id pattern, so only installed versions count.
    return names.filter((name) => isValidPluginId(name));
  }

  /** The installed module of `id`, keyed by manifest version and file identity; `null` without a `plugin.wasm`. */
  private async installedModule(id: string, version: string): Promise<ModuleSource | null> {
    const folder = this.paths.pluginFolder(id);
    const fileKey = await moduleFileKey(folder);
    if (fileKey === null) return null;
    return { key: `${version}|${fileKey}`, compile: () => loadWasmModule(folder, this.memoryLimitBytes) };
  }

  /** The dev plugin's module as its dev server serves it now, keyed by a hash of its bytes; `null` when the server has none. */
  private async devModule(devPlugins: WasmDevPlugins, id: string): Promise<ModuleSource | null> {
    let bytes: Uint8Array;
    try {
      bytes = (await devPlugins.file(id, WASM_MODULE_FILE)).body;
    } catch (error) {
      if (isPluginHostError(error) && error.code === 'NOT_FOUND') return null;
      throw error;
    }
    const hash = createHash('sha256').update(bytes).digest('hex');
    return { key: `dev|${hash}`, compile: () => compileWasmModule(bytes, this.memoryLimitBytes) };
  }

  private forget(id: string, reason: string): WasmLoadResult {
    this.cache.delete(id);
    return { loaded: false, reason };
  }
}
