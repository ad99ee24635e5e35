import { parseSemver } from '@plughost/host-sdk/core';

// Wide enough for any safe integer (callers pass validated strict semver, whose numbers are safe integers).
const NUMBER_WIDTH = 16;

function number(value: number): string {
  return String(value).padStart(NUMBER_WIDTH, '0');
}

/** The sort key and pre-release flag stored beside a version, so SQL can order by precedence. */
export interface VersionOrder {
  /** Byte-wise (memcmp) order of two keys is the semver 2.0.0 precedence of their versions. */
  readonly key: string;
  readonly prerelease: boolean;
}

/**
 * Encodes a semver version as a text whose plain byte order is semver precedence, so the
 * database can find "the highest version" with an index instead of loading every version:
 *
 * - `major.minor.patch` as zero-padded numbers;
 * - then `~` for a release, or `!` and the pre-release identifiers for a pre-release (`!` sorts
 *   below `~`, so `1.0.0-rc.1` < `1.0.0`);
 * - each identifier as `0` + a zero-padded number (numeric) or `1` + its text (alphanumeric, which
 *   ranks above numeric), separated by a space, which sorts below every identifier character, so
 *   fewer identifiers rank lower and `a` < `a-b`.
 *
 * Build metadata is ignored, as precedence ignores it.
 *
 * @throws Error when `version` is not semver (callers validate first).
 */
export function versionOrder(version: string): VersionOrder {
  const parsed = parseSemver(version);
  if (parsed === null) throw new Error(`Not a semver version: ${version}`);
  const core = `${number(parsed.major)}.${number(parsed.minor)}.${number(parsed.patch)}`;
  if (parsed.prerelease.length === 0) return { key: `${core}~`, prerelease: false };
  const identifiers = parsed.prerelease.map((part) => (typeof part === 'number' ? `0${number(part)}` : `1${part}`));
  return { key: `${core}!${identifiers.join(' ')}`, prerelease: true };
}
