import { createHash } from 'node:crypto';
import type { CatalogRepository, RankedVersion } from '../catalog/catalog-repository.js';
import type { VersionRef } from '../catalog/catalog-types.js';
import type { HashedNetwork } from '../telemetry/network-hash.js';
import type { CheckUpdatesRequest } from './check-updates-body.js';

/** Networks whose last recorded list one {@link InstallRecorder} remembers at most. */
export const RECORDED_NETWORKS_ENTRIES = 20_000;

/**
 * The installed versions of a check-updates that the automatic pause records (decisions section
 * 12): those that are their plugin's latest published version, by manifest id, in the order of
 * `installed`. Only a latest version can be a candidate, so only its pause, and so only its
 * running networks, matter; and a request can then write at most one row per plugin the store
 * knows, never one per made-up version string.
 */
export function runningLatestVersions(request: CheckUpdatesRequest, latest: ReadonlyMap<string, RankedVersion>): VersionRef[] {
  const running: VersionRef[] = [];
  for (const installed of request.installed) {
    const version = latest.get(installed.slug);
    if (version !== undefined && version.version === installed.version) running.push({ pluginId: version.pluginId, version: version.version });
  }
  return running;
}

/**
 * Writes what check-updates learns about which versions a network runs (`recordInstalls`), and
 * skips the write when this instance recorded the very same list for the same network earlier the
 * same UTC day: a launcher asks several times a day with an unchanged list, and each of those
 * writes would find every row there already. Per instance, in memory: at most `maxEntries`
 * networks, a digest of their list each, the memo starting empty again when a new one would pass
 * that and at each new day. Another instance, or a forgotten entry, only costs a write that
 * changes nothing.
 */
export class InstallRecorder {
  private day = '';
  private readonly recorded = new Map<string, string>();

  constructor(
    private readonly catalog: Pick<CatalogRepository, 'recordInstalls'>,
    private readonly maxEntries = RECORDED_NETWORKS_ENTRIES,
  ) {}

  /** Records that `network` runs `versions` (nothing for an empty list or one recorded already today). */
  async record(network: HashedNetwork, versions: readonly VersionRef[]): Promise<void> {
    if (versions.length === 0) return;
    if (network.day !== this.day) {
      this.recorded.clear();
      this.day = network.day;
    }
    const digest = createHash('sha256')
      .update(versions.map((version) => `${version.pluginId}@${version.version}`).join('\n'))
      .digest('base64url');
    if (this.recorded.get(network.hash) === digest) return;
    await this.catalog.recordInstalls({ day: network.day, network: network.hash, versions });
    if (this.recorded.size >= this.maxEntries) this.recorded.clear();
    this.recorded.set(network.hash, digest);
  }
}
