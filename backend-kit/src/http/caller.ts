import type { Context } from 'koa';
import { PluginHostError, isValidPluginId, type PluginManifest } from '@plughost/host-sdk/core';
import { findKnownPlugin, type KnownPluginDependencies } from '../services/plugin-data/known-plugin.js';

/**
 * Who is calling a route without a plugin id in its path: a plugin (through the bridge) or the
 * launcher. `dev` is true for a dev plugin (development mode), whose file consents are its own.
 */
export type Caller = { readonly pluginId: null } | { readonly pluginId: string; readonly manifest: PluginManifest; readonly dev?: boolean };

/**
 * The caller of a download or modpack route (decisions section 2): the `X-Plugin-Id` header the
 * host sets on bridge calls names the plugin, which must be installed or a dev plugin (see
 * `findKnownPlugin`); no header means the launcher itself, which needs no path consent and sees
 * every download.
 *
 * @param plugins - where plugins are found: the data directory's layout, and the dev plugins.
 * @throws PluginHostError `INVALID_ARGUMENT` for a malformed id, `PLUGIN_NOT_FOUND` when the
 *   backend knows no such plugin, and what `findKnownPlugin` answers for a dev plugin whose dev server fails.
 */
export async function callerOf(ctx: Context, plugins: KnownPluginDependencies): Promise<Caller> {
  const header = ctx.headers['x-plugin-id'];
  if (header === undefined) return { pluginId: null };
  const id = Array.isArray(header) ? '' : header;
  if (!isValidPluginId(id)) throw new PluginHostError('INVALID_ARGUMENT', 'X-Plugin-Id must be one plugin id');
  const { manifest, dev } = await findKnownPlugin(plugins, id);
  return { pluginId: id, manifest, dev };
}
