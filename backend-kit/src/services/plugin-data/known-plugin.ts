import { PluginHostError, type PluginManifest } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { DevPluginService } from '../dev-plugins/dev-plugin-service.js';
import { readInstalledManifest } from '../installed-manifest.js';

/** What {@link findKnownPlugin} looks in: the installed plugins, and the dev plugins when the backend has them. */
export interface KnownPluginDependencies {
  readonly paths: DataPaths;
  /**
   * Dev plugins (development mode): while `has(id)`, plugin `id` is the dev plugin, and an
   * installed plugin of the same id is shadowed (decisions section 10). Default none.
   */
  readonly devPlugins?: Pick<DevPluginService, 'has' | 'manifest'> | undefined;
}

/** A plugin this backend knows: the dev plugin of that id, else the installed one. */
export interface KnownPlugin {
  readonly id: string;
  /** True for a dev plugin (served by a running `pluginctl dev`, never disabled). */
  readonly dev: boolean;
  /** Its manifest: validated from the dev server for a dev plugin, else the installed one. */
  readonly manifest: PluginManifest;
}

/**
 * The one rule choosing between a dev plugin and an installed plugin of id `id`: the dev plugin
 * while its entry is in `.dev-plugins.json` (and the backend has `devPlugins`). Every per-plugin
 * route asks this, so settings, cache, files, shell, user files, WASM and downloads agree.
 */
export function isDevPlugin(dependencies: { readonly devPlugins?: Pick<DevPluginService, 'has'> | undefined }, id: string): boolean {
  return dependencies.devPlugins?.has(id) === true;
}

/**
 * Plugin `id` as this backend knows it. A dev plugin's manifest is read from its dev server and
 * validated at each call, so the answer is the file route's for `manifest.json`: a dev server
 * that cannot be reached is 502 `PLUGIN_LOAD_FAILED`, one too slow 504 `PLUGIN_TIMEOUT`, an
 * invalid manifest 400 `INVALID_MANIFEST`.
 *
 * @throws PluginHostError `PLUGIN_NOT_FOUND` when it is neither a dev plugin nor installed, or as above.
 */
export async function findKnownPlugin(dependencies: KnownPluginDependencies, id: string): Promise<KnownPlugin> {
  const { devPlugins } = dependencies;
  if (devPlugins !== undefined && isDevPlugin(dependencies, id)) return { id, dev: true, manifest: await devPlugins.manifest(id) };
  const manifest = await readInstalledManifest(dependencies.paths, id);
  if (manifest === null) throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed`, { pluginId: id });
  return { id, dev: false, manifest };
}
