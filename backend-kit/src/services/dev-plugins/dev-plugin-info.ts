import type { PluginInfo, PluginManifest } from '@plughost/host-sdk/core';

/** What the launcher knows of one entry of `.dev-plugins.json`. */
export interface DevPluginState {
  readonly id: string;
  /** The dev server's base URL. */
  readonly url: string;
  /** The last manifest read and validated, if any. */
  readonly manifest: PluginManifest | undefined;
  /** Why it cannot be loaded now, with what to do; `undefined` while it loads. */
  readonly problem: string | undefined;
}

/**
 * The PluginInfo of a dev plugin (decisions section 10): `active` when its dev server answers
 * with a valid manifest that has a page (`entry.frontend`), `installed` otherwise (with
 * `dev.problem` saying why, when something is wrong); always enabled, never a rollback.
 */
export function devPluginInfo(state: DevPluginState): PluginInfo {
  const { manifest, problem } = state;
  const loads = problem === undefined && manifest !== undefined;
  return {
    id: state.id,
    name: manifest?.name ?? state.id,
    // A dev plugin whose manifest was never read has no version yet.
    version: manifest?.version ?? '0.0.0',
    status: loads && manifest.entry?.frontend !== undefined ? 'active' : 'installed',
    enabled: true,
    hasRollback: false,
    dev: { url: state.url, ...(problem !== undefined ? { problem } : {}) },
  };
}

function byId(a: PluginInfo, b: PluginInfo): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The plugin list with the dev plugins: a dev plugin takes the place of an installed plugin of the
 * same id (which stays on disk, untouched, and is listed again once its dev server stops).
 * Sorted by id, like the installed list.
 */
export function withDevPlugins(installed: readonly PluginInfo[], dev: readonly PluginInfo[]): PluginInfo[] {
  if (dev.length === 0) return [...installed];
  const devIds = new Set(dev.map((plugin) => plugin.id));
  return [...installed.filter((plugin) => !devIds.has(plugin.id)), ...dev].sort(byId);
}
