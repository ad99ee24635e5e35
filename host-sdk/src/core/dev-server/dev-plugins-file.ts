/**
 * `.dev-plugins.json` in the launcher's data directory: which plugins a running `pluginctl dev`
 * serves, and where (`{"<id>": "http://127.0.0.1:5173/"}`, decisions 10). Written by pluginctl,
 * read by a launcher in development mode. Only loopback `http:` addresses are accepted: the file
 * names local dev servers, and a launcher must never be pointed elsewhere through it.
 */
import { findPluginIdProblem } from '../manifest/plugin-id.js';

/** The file's name in the launcher's data directory. */
export const DEV_PLUGINS_FILE_NAME = '.dev-plugins.json';

/** What {@link parseDevPluginsFile} found: usable entries, and a sentence for each entry left out. */
export interface DevPluginsFile {
  /** Plugin id to the dev server's base URL (normalized, ending in `/`). */
  readonly plugins: ReadonlyMap<string, string>;
  readonly problems: readonly string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The normalized base URL of a dev server, or a sentence saying why `value` is not one: an
 * `http:` URL on a loopback host, with no credentials, query or fragment.
 */
export function checkDevServerUrl(value: unknown): { readonly url: string } | { readonly problem: string } {
  if (typeof value !== 'string') return { problem: 'is not a string URL' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `"${value}" is not a URL` };
  }
  if (url.protocol !== 'http:') return { problem: `"${value}" is not an http: URL` };
  if (!LOOPBACK_HOSTS.has(url.hostname)) return { problem: `"${value}" is not on this machine (only 127.0.0.1, localhost and [::1] are allowed)` };
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return { problem: `"${value}" has credentials, a query or a fragment` };
  }
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return { url: `${url.origin}${path}` };
}

/** Reads the file's text. A file that is not a JSON object gives no plugins and one problem. */
export function parseDevPluginsFile(text: string): DevPluginsFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { plugins: new Map(), problems: [`${DEV_PLUGINS_FILE_NAME} is not valid JSON (${(error as Error).message})`] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { plugins: new Map(), problems: [`${DEV_PLUGINS_FILE_NAME} must be a JSON object of plugin id to dev server URL`] };
  }
  const plugins = new Map<string, string>();
  const problems: string[] = [];
  for (const [id, address] of Object.entries(value)) {
    const idProblem = findPluginIdProblem(id);
    if (idProblem !== null) {
      problems.push(`"${id}" is not a plugin id: ${idProblem}`);
      continue;
    }
    const checked = checkDevServerUrl(address);
    if ('problem' in checked) problems.push(`${id}: ${checked.problem}`);
    else plugins.set(id, checked.url);
  }
  return { plugins, problems };
}

/** The file's text for these entries (sorted by id, so rewrites are stable). */
export function formatDevPluginsFile(plugins: ReadonlyMap<string, string>): string {
  const sorted = Object.fromEntries([...plugins].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}
