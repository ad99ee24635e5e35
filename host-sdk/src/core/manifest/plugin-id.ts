/**
 * The plugin id rule. The id is the install folder name, a URL path segment of the local backend
 * and the dependency key, so it must be safe in all three on every platform.
 */

/** Longest plugin id accepted. */
export const PLUGIN_ID_MAX_LENGTH = 128;

/**
 * The complete plugin id rule as one pattern, for routers and schemas: reverse-domain style, lower
 * case, at least two dot-separated segments of `a-z`, `0-9`, `-` and `_` that start and end with a
 * letter or digit, 3 to {@link PLUGIN_ID_MAX_LENGTH} characters, never containing `.bak-` (the
 * marker of snapshot folders, `plugins/<id>.bak-<version>`), and not starting with a name Windows
 * reserves for devices (`con.`, `nul.`, `com1.`, ...), which could not be a folder there.
 */
export const PLUGIN_ID_PATTERN =
  /^(?=.{3,128}$)(?!.*\.bak-)(?!(?:con|prn|aux|nul|com[0-9]|lpt[0-9])\.)[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?)+$/;

const SEGMENT = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;

/**
 * Explains why `id` is not a valid plugin id, or returns `null` when it is one. The explanations
 * are written for plugin authors; {@link PLUGIN_ID_PATTERN} decides.
 *
 * @example
 * ```ts
 * findPluginIdProblem('com.example.hello'); // null
 * findPluginIdProblem('Hello'); // 'must be lower case ...'
 * ```
 */
export function findPluginIdProblem(id: string): string | null {
  if (PLUGIN_ID_PATTERN.test(id)) return null;
  if (id.length === 0) return 'must not be empty';
  if (id.length > PLUGIN_ID_MAX_LENGTH) return `must be at most ${PLUGIN_ID_MAX_LENGTH} characters`;
  if (id !== id.toLowerCase()) return `must be lower case (got "${id}")`;
  if (id.includes('.bak-')) return 'must not contain ".bak-", which marks snapshot folders';
  const segments = id.split('.');
  if (segments.length < 2) {
    return `must be reverse-domain style with at least two dot-separated segments, such as com.example.${id || 'plugin'}`;
  }
  if (/^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/.test(segments[0] ?? '')) {
    return `must not start with "${segments[0]}", a name Windows reserves for devices`;
  }
  const bad = segments.find((segment) => !SEGMENT.test(segment));
  if (bad === '') return 'must not have an empty segment (no leading, trailing or double dots)';
  return `has an invalid segment "${bad ?? id}": use a-z, 0-9, "-" and "_", starting and ending with a letter or digit`;
}

/** True when `id` is a valid plugin id (see {@link PLUGIN_ID_PATTERN}). */
export function isValidPluginId(id: unknown): id is string {
  return typeof id === 'string' && PLUGIN_ID_PATTERN.test(id);
}
