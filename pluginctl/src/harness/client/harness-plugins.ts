import type { BackendClient, PluginManifest } from '@plughost/host-sdk';
import { readInstalledManifest } from '@plughost/host-sdk/core';

/** A plugin of `plugins-dev/` as the stub lists it, with its manifest when it could be read. */
export interface HarnessPlugin {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly manifest?: PluginManifest;
}

interface ListedPlugin {
  readonly id: string;
  readonly name?: unknown;
  readonly status?: unknown;
}

/**
 * The stub's plugin list (`GET /api/plugins/`) with each plugin's manifest, read the way the host
 * reads it. A manifest that cannot be read leaves the entry without one: the host then reports the
 * reason when it activates the plugin, as it would in a launcher.
 */
export async function listHarnessPlugins(client: BackendClient): Promise<HarnessPlugin[]> {
  const listed = await client.json<ListedPlugin[]>('/api/plugins/');
  return Promise.all(
    listed.map(async (entry) => {
      const plugin = {
        id: entry.id,
        name: typeof entry.name === 'string' ? entry.name : entry.id,
        status: typeof entry.status === 'string' ? entry.status : 'installed',
      };
      const manifest = await readManifest(client, entry.id);
      return manifest ? { ...plugin, manifest } : plugin;
    }),
  );
}

async function readManifest(client: BackendClient, id: string): Promise<PluginManifest | undefined> {
  try {
    const response = await client.request(`/api/plugins/${encodeURIComponent(id)}/files/manifest.json`);
    if (!response.ok) return undefined;
    const read = readInstalledManifest(await response.text(), id);
    return read.ok ? read.manifest : undefined;
  } catch {
    return undefined;
  }
}

/** Plugins whose page runs in a sandboxed frame once the host activates them. */
export function isFramed(plugin: HarnessPlugin): boolean {
  return plugin.status === 'active' && plugin.manifest?.entry?.frontend !== undefined && plugin.manifest.render !== 'inline';
}

/** Whether the plugin contributes a sidebar item for its own main page (else the harness adds one). */
export function hasMenuItemForFrontend(plugin: HarnessPlugin): boolean {
  const frontend = plugin.manifest?.entry?.frontend;
  return (plugin.manifest?.contributes?.menuItems ?? []).some((item) => item.path === frontend);
}
