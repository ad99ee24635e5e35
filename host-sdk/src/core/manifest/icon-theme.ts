/**
 * The icon-theme JSON a theme package names in `contributes.iconTheme`: images for the launcher's
 * own icons, by name. The launcher decides which names it draws (`home`, `store`, `downloads`,
 * ...); the theme maps each name it replaces to an image:
 *
 * ```json
 * { "icons": { "home": "icons/home.svg", "store": "https://cdn.example.com/store.svg" } }
 * ```
 *
 * The file comes from a plugin, so it is checked as hostile input: every problem refuses the whole
 * theme, naming the entry. Isomorphic: the browser host applies a parsed theme, and the same check
 * can run wherever a package is inspected.
 */
import { PACKAGE_PATH_PROBLEM_TEXT, findPackagePathProblem } from '../package-path.js';

/** One icon of a theme: a package path of an image, or an `https:` or `data:image/` URL. */
export type IconThemeImage = { readonly kind: 'package'; readonly path: string } | { readonly kind: 'url'; readonly url: string };

/** A parsed icon theme: each launcher icon name it replaces, with its image. */
export interface IconTheme {
  readonly icons: ReadonlyMap<string, IconThemeImage>;
}

/** The result of {@link parseIconTheme}. */
export type IconThemeResult = { readonly ok: true; readonly theme: IconTheme } | { readonly ok: false; readonly problem: string };

/** Largest icon-theme file, in characters. */
export const MAX_ICON_THEME_LENGTH = 1024 * 1024;
/** Most icons one theme may name. */
export const MAX_THEME_ICONS = 512;
/** Longest `data:` image, in characters. */
export const MAX_DATA_ICON_LENGTH = 64 * 1024;

/** A launcher icon name: lower-case words joined by `-` (`home`, `nav-downloads`), at most 64 characters. */
const ICON_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const IMAGE_FILE = /\.(?:png|apng|svg|jpe?g|gif|webp|avif|ico|bmp)$/i;
/** A `data:` URL of a raster or SVG image, base64 or percent-encoded. */
const DATA_IMAGE = /^data:image\/(?:png|apng|gif|jpeg|webp|avif|svg\+xml|x-icon|bmp)(?:;[\w=.+-]+)*,/i;

/** Why `value` is not an icon image, or the image. */
function readImage(value: unknown): IconThemeImage | string {
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
  if (/^data:/i.test(value)) {
    if (!DATA_IMAGE.test(value)) return 'is a data: URL that is not an image';
    if (value.length > MAX_DATA_ICON_LENGTH) return `is a data: URL longer than ${MAX_DATA_ICON_LENGTH} characters`;
    return { kind: 'url', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    if (!/^https:\/\//i.test(value)) return 'must be an https: URL, a data:image/ URL or a package path (other URL schemes are refused)';
    try {
      const url = new URL(value);
      if (url.username !== '' || url.password !== '') return 'is an https: URL with credentials';
      return { kind: 'url', url: url.href };
    } catch {
      return 'is not a valid URL';
    }
  }
  const problem = findPackagePathProblem(value);
  if (problem !== null) return `must be a safe package path, but it ${PACKAGE_PATH_PROBLEM_TEXT[problem]}`;
  if (!IMAGE_FILE.test(value)) return 'must name an image file (.svg, .png, .webp, ...)';
  return { kind: 'package', path: value };
}

/**
 * Parses and checks an icon-theme file. Rules: a JSON object (at most 1 MiB of text) whose `icons`
 * is an object of at most 512 entries; each key is an icon name (lower-case words joined by `-`,
 * at most 64 characters); each value is a package path of an image file, an `https:` URL without
 * credentials, or a `data:image/` URL of at most 64 KiB. Other top-level fields are ignored, so a
 * later format can add some.
 */
export function parseIconTheme(text: string): IconThemeResult {
  const fail = (problem: string): IconThemeResult => ({ ok: false, problem });
  if (text.length > MAX_ICON_THEME_LENGTH) return fail(`the file is larger than ${MAX_ICON_THEME_LENGTH} characters`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail('the file is not JSON');
  }
  const icons = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as { icons?: unknown }).icons : undefined;
  if (typeof icons !== 'object' || icons === null || Array.isArray(icons)) return fail('"icons" must be an object of icon names to images');
  const entries = Object.entries(icons);
  if (entries.length > MAX_THEME_ICONS) return fail(`"icons" names more than ${MAX_THEME_ICONS} icons`);
  const parsed = new Map<string, IconThemeImage>();
  for (const [name, value] of entries) {
    if (name.length > 64 || !ICON_NAME.test(name)) return fail(`${JSON.stringify(name.slice(0, 64))} is not an icon name (lower-case words joined by "-")`);
    const image = readImage(value);
    if (typeof image === 'string') return fail(`icons.${name} ${image}`);
    parsed.set(name, image);
  }
  return { ok: true, theme: { icons: parsed } };
}
