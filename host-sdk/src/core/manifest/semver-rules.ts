/**
 * The version rules of manifests and dependency matching. Versions are strict semver 2.0.0 (no
 * leading `v`, no `=`, no loose forms), because the version is compared by the store, the
 * launcher and the CLI, and each must read it the same way.
 */
import { PluginHostError } from '../errors.js';
import { compareSemver, parseSemver, parseSemverRange, rangeIncludes } from './semver-range.js';
import { MAX_VERSION_LENGTH, isStrictSemver } from './strict-version.js';

export { MAX_VERSION_LENGTH, findVersionProblem, isStrictSemver } from './strict-version.js';

/**
 * Explains why `range` is not a usable semver range, or returns `null` when it is one. An empty
 * range is refused (semver would read it as `*`): write `*` to accept any version.
 */
export function findRangeProblem(range: string): string | null {
  if (range.trim().length === 0) return 'must not be empty (write "*" to accept any version)';
  if (range.length > MAX_VERSION_LENGTH) return `must be at most ${MAX_VERSION_LENGTH} characters`;
  // Valid as node-semver's validRange with its default options says (semver-range.ts).
  if (parseSemverRange(range) === null) {
    return `must be a semver range such as ^1.2.0, ~1.2.3, >=1.0.0 <2.0.0 or * (got "${range}")`;
  }
  return null;
}

/** True when `range` is a usable, non-empty semver range. */
export function isValidSemverRange(range: unknown): range is string {
  return typeof range === 'string' && findRangeProblem(range) === null;
}

/**
 * True when `version` satisfies `range`. Pre-releases match like any other version
 * (`1.3.0-beta.1` satisfies `^1.2.0`), because a plugin author installing a beta dependency
 * expects it to count. An invalid version or range never matches.
 */
export function satisfiesRange(version: string, range: string): boolean {
  if (!isStrictSemver(version) || !isValidSemverRange(range)) return false;
  const parsed = parseSemverRange(range, { includePrerelease: true });
  const parsedVersion = parseSemver(version);
  return parsed !== null && parsedVersion !== null && rangeIncludes(parsed, parsedVersion);
}

/**
 * Orders two strict semver versions by semver precedence: negative when `a` is older, zero when
 * they are equal (build metadata is ignored), positive when `a` is newer. `1.0.0-beta.1` is older
 * than `1.0.0`.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when either is not a strict semver version.
 */
export function compareVersions(a: string, b: string): number {
  return compareSemver(parseStrictSemver(a), parseStrictSemver(b));
}

function parseStrictSemver(version: string): NonNullable<ReturnType<typeof parseSemver>> {
  const parsed = isStrictSemver(version) ? parseSemver(version) : null;
  if (parsed === null) throw new PluginHostError('INVALID_ARGUMENT', `Not a semver version: ${JSON.stringify(version)}`);
  return parsed;
}
