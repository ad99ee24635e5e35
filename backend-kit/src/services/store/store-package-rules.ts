import { PluginHostError, type PluginManifest } from '@plughost/host-sdk/core';
import type { StorePackageFacts } from './store-package-facts.js';

/**
 * Refuses a package that is not the plugin and version the store listed (decisions section 12):
 * 400 `STORE_LISTING_MISMATCH` naming both, so a store cannot list one plugin and serve another.
 */
export function assertListedPackage(manifest: PluginManifest, facts: StorePackageFacts): void {
  if (manifest.id === facts.listedId && manifest.version === facts.version) return;
  throw new PluginHostError(
    'STORE_LISTING_MISMATCH',
    `The store lists ${facts.slug} as ${facts.listedId} ${facts.version}, but its package is ${manifest.id} ${manifest.version}; nothing was installed. Report this store to its operator.`,
    { slug: facts.slug, listed: { id: facts.listedId, version: facts.version }, package: { id: manifest.id, version: manifest.version } },
  );
}

/**
 * Refuses an unsigned package from any source but the primary (decisions section 12): judged by
 * the source that answered, whichever download URL won. 400 `SIGNATURE_INVALID`.
 */
export function assertUnsignedFromPrimary(signed: boolean, facts: StorePackageFacts): void {
  if (signed || facts.source.primary) return;
  throw new PluginHostError(
    'SIGNATURE_INVALID',
    `The package of ${facts.slug} ${facts.version} from the backup source ${facts.source.url} is not signed; unsigned packages are installed only from the primary store. Nothing was installed.`,
    { check: 'missing', source: facts.source.url },
  );
}

/** The permissions the package asks for that the store listing did not show (`render:inline` is never listed, so it is left out). */
export function unlistedPermissionsOf(manifest: PluginManifest, facts: StorePackageFacts): string[] {
  return (manifest.permissions ?? []).filter((permission) => !facts.listedPermissions.includes(permission));
}
