import type { Context } from 'koa';
import { PluginHostError, isValidPluginId, type PluginManifest } from '@plughost/host-sdk/core';
import type { DataPaths } from '../config/data-paths.js';
import { readInstalledManifest } from '../services/installed-manifest.js';

/** Who is calling a route without a plugin id in its path: a plugin (through the bridge) or the launcher. */
export type Caller = { readonly pluginId: null } | { readonly pluginId: string; readonly manifest: PluginManifest };

/**
 * The caller of a download or modpack route (decisions section 2): the `X-Plugin-Id` header the
 * host sets on bridge calls names the plugin, which must be installed; no header means the
 * launcher itself, which needs no path consent and sees every download.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for a malformed id, `PLUGIN_NOT_FOUND` when it is not installed.
 */
export async function callerOf(ctx: Context, paths: DataPaths): Promise<Caller> {
  const header = ctx.headers['x-plugin-id'];
  if (header === undefined) return { pluginId: null };
  const id = Array.isArray(header) ? '' : header;
  if (!isValidPluginId(id)) throw new PluginHostError('INVALID_ARGUMENT', 'X-Plugin-Id must be one plugin id');
  const manifest = await readInstalledManifest(paths, id);
  if (!manifest) throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed`, { pluginId: id });
  return { pluginId: id, manifest };
}
