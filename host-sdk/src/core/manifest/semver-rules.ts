/**
 * The version rules of manifests and dependency matching. Versions are strict semver 2.0.0 (no
 * leading `v`, no `=`, no loose forms), because the version is compared by the store, the
 * launcher and the CLI, and each must read it the same way.
 */
import { PluginHostError } from '../errors.js';
import { compareSemver, parseSemver, parseSemverRange, rangeIncludes } from './semver-range.js';

/** Longest version or range string accepted (semver's own limit for versions). */
export const MAX_VERSION_LENGTH = 256;

// The regular expression published on semver.org, anchored: `x.y.z`, optional pre-release and
// build metadata, no leading zeros in numeric identifiers.
const STRICT_SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

// The parser also enforces that each number is a safe integer.
function isStrict(value: string): boolean {
  return STRICT_SEMVER.test(value) && parseSemver(value) !== null;
}

/**
 * Explains why `value` is not a strict semver version, or returns `null` when it is one.
 *
 * @example
 * ```ts
 * findVersionProblem('1.2.3-beta.1+build5'); // null
 * findVersionProblem('v1.2.3'); // 'must not start with "v" ...'
 * ```
 */
export function findVersionProblem(value: string): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_VERSION_LENGTH) return `must be at most ${MAX_VERSION_LENGTH} characters`;
  if (!isStrict(value)) {
    const stripped = value.slice(1);
    if (/^[vV=]/.test(value) && isStrict(stripped)) return `must not start with "${value[0]}" (write "${stripped}")`;
    return `must be a semver version such as 1.2.3, 1.2.3-beta.1 or 1.2.3+build5 (got "${value}")`;
  }
  return null;
}

/** True when `value` is a strict semver version (pre-release and build metadata allowed). */
export function isStrictSemver(value: unknown): value is string {
  return typeof value === 'string' && findVersionProblem(value) === null;
}

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
