/**
 * How one URL written by a plugin is turned into a URL of its files on the local backend.
 */

/** What to do with one URL found in plugin markup or CSS. */
export type UrlRewrite =
  /** Leave it as written: absolute, `data:`, `blob:`, `#fragment`, `//host`, `mailto:`, ... */
  | { readonly action: 'keep' }
  /** Drop it: a `javascript:` URL, which would run code outside the plugin's script elements. */
  | { readonly action: 'remove' }
  /** Replace it by an absolute URL below the plugin's files. */
  | { readonly action: 'rewrite'; readonly url: string };

/** Resolves the relative URLs of one plugin page. */
export interface PluginUrlResolver {
  /** The plugin's files URL without a trailing slash. */
  readonly filesBase: string;
  /** Absolute URL of the folder holding the entry page, with a trailing slash. */
  readonly entryFolderUrl: string;
  /** Decides what happens to one URL as written in the page. */
  resolve(reference: string): UrlRewrite;
}

// Relative references are resolved against this made-up origin: the URL parser then applies the
// browser's own rules (dot segments, backslashes, percent-encoding of what needs it) and cannot
// climb above "/", which is the plugin root. Only the path, query and fragment are kept.
const RESOLUTION_ORIGIN = 'https://plugin-root.invalid';
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// The URL parser strips leading and trailing C0 controls and spaces and drops tabs and newlines
// anywhere, so `java\tscript:` is `javascript:`. Classify the URL the way the browser will read it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls the URL parser strips are what this pattern matches
const EDGE_CONTROLS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;

/**
 * Creates the resolver for a plugin page.
 *
 * @param pluginFilesBase - absolute URL of the plugin's files, such as
 *   `http://127.0.0.1:5000/api/plugins/com.x.y/files` (a trailing slash is ignored).
 * @param entryPath - the page's path inside the package, such as `pages/main.html`. It is a
 *   package path, not a URL: each segment is percent-encoded, and `..` cannot leave the package.
 * @throws TypeError when `pluginFilesBase` is not an absolute URL.
 */
export function createPluginUrlResolver(pluginFilesBase: string, entryPath: string): PluginUrlResolver {
  const filesBase = pluginFilesBase.replace(/\/+$/, () => '');
  if (!URL.canParse(filesBase)) throw new TypeError(`pluginFilesBase is not an absolute URL: ${pluginFilesBase}`);
  const segments = packagePathSegments(entryPath).map((segment) => encodeURIComponent(segment));
  const entryUrl = `${RESOLUTION_ORIGIN}/${segments.join('/')}`;
  const folder = segments
    .slice(0, -1)
    .map((segment) => `${segment}/`)
    .join('');
  return {
    filesBase,
    entryFolderUrl: `${filesBase}/${folder}`,
    resolve: (reference) => resolveReference(reference, entryUrl, filesBase),
  };
}

function resolveReference(reference: string, entryUrl: string, filesBase: string): UrlRewrite {
  const cleaned = reference.replace(EDGE_CONTROLS, () => '').replace(TAB_OR_NEWLINE, () => '');
  if (cleaned === '' || cleaned.startsWith('#')) return { action: 'keep' };
  const scheme = SCHEME.exec(cleaned);
  if (scheme) return scheme[0].toLowerCase() === 'javascript:' ? { action: 'remove' } : { action: 'keep' };
  // A network-path reference (`//host/x`; browsers read `\` as `/` here) names another host.
  if (/^[\\/]{2}/.test(cleaned)) return { action: 'keep' };
  const resolved = new URL(cleaned, entryUrl);
  if (resolved.origin !== RESOLUTION_ORIGIN) return { action: 'keep' };
  return { action: 'rewrite', url: `${filesBase}${resolved.pathname}${resolved.search}${resolved.hash}` };
}

/** The segments of a package path, with `.` dropped and `..` clamped at the package root. */
function packagePathSegments(path: string): string[] {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments;
}
