/**
 * The registry protocol's slug rule: the plugin's name in store URLs (`/plugins/<slug>`). Lower case `a-z`, `0-9`
 * and single hyphens, starting and ending with a letter or digit, 1 to 64 characters. No dots, so
 * a slug can never be mistaken for a plugin id (which always has one), and it is safe in a path
 * segment and a file name.
 */
export const SLUG_PATTERN = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** True when `slug` follows {@link SLUG_PATTERN}. */
export function isValidSlug(slug: unknown): slug is string {
  return typeof slug === 'string' && SLUG_PATTERN.test(slug);
}
