/**
 * Version rules of registry answers, on the core's one comparison (`compareVersions`, the one
 * the backend's downgrade rule uses): a registry is another party, so a version it names that is
 * not strict semver never counts as newer and never throws.
 */
import { compareVersions, isStrictSemver } from '../manifest/index.js';

/**
 * True when `candidate` is a newer version than `current` by semver precedence (`1.2.0` over
 * `1.0.0`, `1.0.0` over `1.0.0-rc.1`; build metadata is ignored). False when either is not a
 * strict semver version: an update offer is never made from a version nobody can order.
 *
 * @example
 * ```ts
 * isNewerVersion(plugin.latestVersion, installed.version); // "Update to 1.2.0" when true
 * ```
 */
export function isNewerVersion(candidate: string | undefined, current: string | undefined): boolean {
  return isStrictSemver(candidate) && isStrictSemver(current) && compareVersions(candidate, current) > 0;
}

/**
 * The entries ordered newest version first; entries whose version is not strict semver go last, in
 * the order given. A new array; `entries` is not changed.
 */
export function newestVersionsFirst<T extends { readonly version: string }>(entries: readonly T[]): T[] {
  const ordered = entries.filter((entry) => isStrictSemver(entry.version)).sort((a, b) => compareVersions(b.version, a.version));
  return [...ordered, ...entries.filter((entry) => !isStrictSemver(entry.version))];
}
