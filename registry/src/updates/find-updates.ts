import type { CatalogRepository, RankedVersion } from '../catalog/catalog-repository.js';
import type { CatalogVersion, VersionRef } from '../catalog/catalog-types.js';
import { versionOrder } from '../catalog/version-key.js';
import type { CheckUpdatesRequest } from './check-updates-body.js';
import { runningLatestVersions } from './install-record.js';
import { installedVersionFacts } from './installed-version-facts.js';
import type { LatestVersionCache } from './latest-version-cache.js';
import { pausedRollouts, pausedRolloutsWithRevision, type PauseCandidate } from './rollout-pause.js';

/** An update the registry offers for one installed plugin. */
export interface OfferedUpdate {
  readonly slug: string;
  readonly currentVersion: string;
  readonly version: CatalogVersion;
}

/** Options of {@link findUpdates}. */
export interface FindUpdatesOptions {
  /** More distinct reporter networks than this in 24 hours withhold a version. */
  readonly pauseThreshold: number;
  readonly now: Date;
  /**
   * Where the candidates come from (default `catalog.latestPublishedOf`; the route passes its
   * {@link LatestVersionCache}, whose `kept` and `observe` allow the one-statement path).
   */
  readonly latestVersions?: Pick<CatalogRepository, 'latestPublishedOf'> & Partial<Pick<LatestVersionCache, 'kept' | 'observe'>>;
  /**
   * Called once with the installed versions that are their plugin's latest published version (see
   * `runningLatestVersions`), as soon as the latest versions are known, while the pause decisions
   * are read: check-updates records them for the automatic pause (decisions section 12).
   */
  readonly recordRunning?: (state: { readonly running: readonly VersionRef[] }) => Promise<void>;
}

/** The precedence key of a version the launcher sent, remembered (an invalid one throws, as `versionOrder` does). */
function keyOf(version: string): string {
  return installedVersionFacts.of(version).key ?? versionOrder(version).key;
}

/**
 * The updates of `POST /plugins/check-updates`, in the order of `installed`. For each installed
 * slug the only candidate is the plugin's latest published version (the same `latestVersion` the
 * list shows). It is offered when it is newer than the installed version, the launcher satisfies
 * its `minLauncherVersion`, and its rollout is not paused. Otherwise the plugin gets no item: a
 * withheld candidate never falls back to an older version, which could be the very version users
 * are moving away from, and which the launcher could not tell apart from a real latest.
 */
export async function findUpdates(catalog: CatalogRepository, request: CheckUpdatesRequest, options: FindUpdatesOptions): Promise<OfferedUpdate[]> {
  // Two queries whatever the number of plugins (issue 18): the candidates of every installed slug,
  // then the pause decisions of those still in the running. With every slug's latest version kept
  // in memory, one: the pause decisions and the catalog revision in one statement, the kept
  // versions used only when that revision is the one they were kept under. Recording the running
  // versions is one more statement, run beside the pause read (and skipped for a list recorded
  // already today, see InstallRecorder).
  const slugs = request.installed.map((installed) => installed.slug);
  const source: NonNullable<FindUpdatesOptions['latestVersions']> = options.latestVersions ?? catalog;
  // Recorded once, from the first latest versions known: a kept version a moment stale still names
  // what the launcher listed.
  let record: Promise<void> | undefined;
  const recordFrom = (latest: ReadonlyMap<string, RankedVersion>): Promise<void> =>
    (record ??= options.recordRunning?.({ running: runningLatestVersions(request, latest) }) ?? Promise.resolve());
  const kept = source.kept?.(slugs);
  if (kept !== undefined) {
    const candidates = candidatesOf(request, kept.latest);
    const [{ revision, paused }] = await Promise.all([
      pausedRolloutsWithRevision(catalog, pauseCandidatesOf(candidates), options.pauseThreshold, options.now),
      recordFrom(kept.latest),
    ]);
    if (revision === kept.revision) return candidates.filter((_, index) => paused[index] !== true);
    // The catalog changed meanwhile: start again from the database, as without kept versions.
    source.observe?.(revision);
  }
  const latest = await source.latestPublishedOf(slugs);
  const candidates = candidatesOf(request, latest);
  if (candidates.length === 0) {
    await recordFrom(latest);
    return candidates;
  }
  const [paused] = await Promise.all([pausedRollouts(catalog, pauseCandidatesOf(candidates), options.pauseThreshold, options.now), recordFrom(latest)]);
  return candidates.filter((_, index) => paused[index] !== true);
}

/**
 * The installed plugins whose latest version is newer and allowed for the launcher, in the order
 * of `installed`. Versions are compared by their precedence keys (`versionOrder`): one parse per
 * distinct version string (remembered, see VersionFactsMemo) instead of six per plugin.
 */
function candidatesOf(request: CheckUpdatesRequest, latest: ReadonlyMap<string, RankedVersion>): OfferedUpdate[] {
  const launcherKey = keyOf(request.launcherVersion);
  const candidates: OfferedUpdate[] = [];
  for (const installed of request.installed) {
    const version = latest.get(installed.slug);
    if (version === undefined || !(version.versionKey > keyOf(installed.version))) continue;
    if (version.minLauncherKey > launcherKey) continue;
    candidates.push({ slug: installed.slug, currentVersion: installed.version, version });
  }
  return candidates;
}

function pauseCandidatesOf(candidates: readonly OfferedUpdate[]): PauseCandidate[] {
  return candidates.map(({ version }) => ({ pluginId: version.pluginId, version: version.version }));
}
