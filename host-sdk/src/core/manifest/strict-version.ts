/**
 * Strict semver 2.0.0 versions (no leading `v`, no `=`, no loose forms): the check every reader of
 * a manifest makes. Apart from the range matcher (`semver-range.ts`), so that a launcher page reads
 * installed manifests without carrying range parsing, which it needs only for dependencies.
 */

/** Longest version or range string accepted (semver's own limit for versions). */
export const MAX_VERSION_LENGTH = 256;

// The regular expression published on semver.org, anchored: `x.y.z`, optional pre-release and
// build metadata, no leading zeros in numeric identifiers.
const STRICT_SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

// Within the length limit, node-semver (and `parseSemver`) accept every version the expression
// does whose three numbers are safe integers.
function isStrict(value: string): boolean {
  const match = STRICT_SEMVER.exec(value);
  return match !== null && [match[1], match[2], match[3]].every((part) => Number(part) <= Number.MAX_SAFE_INTEGER);
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
