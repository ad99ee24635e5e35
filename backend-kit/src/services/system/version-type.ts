/** What kind of release a launcher version is (`VersionType` of system information). */
export type VersionType = 'alpha' | 'beta' | 'rc' | 'dev' | 'stable';

/** Every `VersionType`, for schemas and docs. */
export const VERSION_TYPES: readonly VersionType[] = ['alpha', 'beta', 'rc', 'dev', 'stable'];

const KNOWN_TAGS: ReadonlySet<string> = new Set(['alpha', 'beta', 'rc', 'dev']);

/**
 * The release kind from the version's pre-release tag: the letters of its first identifier,
 * case-insensitive, so `1.2.3-beta.4`, `1.2.3-beta4` and `1.2.3-BETA` are all `beta`. No
 * pre-release tag (build metadata alone does not count) is `stable`. Any other tag
 * (`-nightly`, `-snapshot`, `-0.3.7`) is `dev`: a pre-release is by definition not a stable
 * release, and calling it one would tell plugins and bug reports the wrong thing.
 *
 * @example
 * ```ts
 * versionTypeOf('2.0.0-rc.1'); // 'rc'
 * versionTypeOf('1.2.3+build5'); // 'stable'
 * ```
 */
export function versionTypeOf(version: string): VersionType {
  const withoutBuild = version.split('+', 1)[0] ?? '';
  const dash = withoutBuild.indexOf('-');
  if (dash < 0) return 'stable';
  const firstIdentifier = withoutBuild.slice(dash + 1).split('.', 1)[0] ?? '';
  const letters = /^[a-z]*/i.exec(firstIdentifier)?.[0].toLowerCase() ?? '';
  return KNOWN_TAGS.has(letters) ? (letters as VersionType) : 'dev';
}
