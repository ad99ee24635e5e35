import type { BackendLogger } from '@plughost/backend-kit';
import type { CatalogVersion } from '../catalog/catalog-types.js';
import { RegistryError } from '../errors/registry-error.js';

/**
 * What the download routes do when the catalog names a package file the blob storage does not have
 * (a shared volume or bucket lost it): they answer 503 `package_unavailable` naming the digest,
 * which tells a launcher to try later (or another source) rather than blame itself, and the
 * registry logs the digest once, not once per request, since every launcher that updates asks for
 * it again. A digest whose file is back is forgotten, so a later loss is logged again. Everything
 * else keeps being served.
 */
export class MissingPackages {
  private readonly logged = new Set<string>();

  constructor(private readonly logger: BackendLogger) {}

  /** The error to answer for `version`, whose file is missing; logs its digest the first time. */
  unavailable(version: Pick<CatalogVersion, 'pluginId' | 'version' | 'sha256'>): RegistryError {
    const { pluginId, version: name, sha256 } = version;
    if (!this.logged.has(sha256)) {
      this.logged.add(sha256);
      this.logger.error(
        `Package file sha256 ${sha256} (${pluginId} ${name}) is missing from the package storage; downloads of it answer 503 until it is restored ` +
          '(from a backup of the package volume). Logged once per digest.',
        { sha256, pluginId, version: name },
      );
    }
    return new RegistryError(
      'package_unavailable',
      `The package file of ${pluginId} ${name} (sha256 ${sha256}) is missing from the registry's package storage; try again later`,
    );
  }

  /** Notes that the file of `sha256` is there (again). */
  found(sha256: string): void {
    this.logged.delete(sha256);
  }
}
