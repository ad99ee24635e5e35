import {
  type AvailableUpdate,
  describeCapabilities,
  isInRollout,
  isNewerVersion,
  type PluginManifest,
  type RegistrySources,
  type UpdateItem,
} from '@plughost/host-sdk/core';
import { permissionsOf } from '../plugins/plugin-info.js';

/** A store-installed plugin as the check sees it. */
export interface CheckedPlugin {
  readonly id: string;
  readonly slug: string;
  /** The source its installed version was downloaded through (its store record). */
  readonly source: string;
  readonly manifest: PluginManifest;
}

/**
 * The permissions `version` of `slug` asks for beyond `installed`'s, from the store's detail
 * (`versions[].permissions`, decisions section 6). The consent rule of the update itself reads
 * the downloaded package; this is what the manager shows beforehand, so a store that cannot
 * say gives an empty list rather than failing the check.
 */
async function addedFromStore(
  sources: Pick<RegistrySources, 'detail'>,
  slug: string,
  version: string,
  installed: PluginManifest,
): Promise<AvailableUpdate['addedPermissions']> {
  try {
    const detail = await sources.detail(slug);
    const entry = detail.versions.find((candidate) => candidate.version === version);
    if (!entry) return [];
    const had = new Set(permissionsOf(installed).map((permission) => permission.id));
    return describeCapabilities({ permissions: entry.permissions })
      .capabilities.filter((capability) => !had.has(capability.id))
      .map(({ id, risk }) => ({ id, risk }));
  } catch {
    return [];
  }
}

/**
 * Turns check-updates items into offers: only items for a checked plugin, newer than its
 * installed version, and whose rollout bucket for this installation is below `rolloutPercent`
 * (decisions section 6), with the permissions they add.
 */
export async function offersOf(
  items: readonly UpdateItem[],
  plugins: readonly CheckedPlugin[],
  installationId: string,
  sources: Pick<RegistrySources, 'detail'>,
): Promise<AvailableUpdate[]> {
  const offers: AvailableUpdate[] = [];
  for (const item of items) {
    const plugin = plugins.find((candidate) => candidate.slug === item.slug);
    if (!plugin || !isNewerVersion(item.latestVersion, plugin.manifest.version)) continue;
    if (!isInRollout(installationId, item.slug, item.latestVersion, item.rolloutPercent)) continue;
    offers.push({
      id: plugin.id,
      slug: item.slug,
      currentVersion: plugin.manifest.version,
      latestVersion: item.latestVersion,
      changelog: item.changelog,
      publishedAt: item.publishedAt,
      rolloutPercent: item.rolloutPercent,
      addedPermissions: await addedFromStore(sources, item.slug, item.latestVersion, plugin.manifest),
    });
  }
  return offers;
}
