/**
 * Launcher routes of plugin pages. A page a plugin contributes (`contributes.menuItems`, or a page
 * item given to `addMenuItem`) opens at the internal route `/plugins/<id>/<path>`; the launcher
 * page reads such routes back with {@link parsePluginPageRoute} to show that page, so every
 * launcher (the demo, pluginctl's debug harness, a vendor's) reads them the same way.
 */

/** A plugin page route, read. */
export interface PluginPageRoute {
  readonly pluginId: string;
  /** The page's path inside the plugin's package; `''` for the plugin's main page (`/plugins/<id>`). */
  readonly path: string;
}

/**
 * The path of an internal launcher route (`/settings?tab=2#x` → `/settings`): query and fragment
 * dropped, trailing slashes removed, `/` for the root. Launchers compare it with their own pages.
 */
export function internalRoutePath(route: string): string {
  return (route.split(/[?#]/)[0] ?? '/').replace(/\/+$/, '') || '/';
}

/**
 * Reads a plugin page route, `/plugins/<id>` or `/plugins/<id>/<path>` (query, fragment and
 * trailing slashes ignored; both parts percent-decoded). Any other route, and one whose
 * percent-encoding is broken, gives `null`: the launcher shows its own page or "not found".
 *
 * @example
 * ```ts
 * parsePluginPageRoute('/plugins/com.example.hello/pages/about.html?tab=2');
 * // { pluginId: 'com.example.hello', path: 'pages/about.html' }
 * parsePluginPageRoute('/settings'); // null
 * ```
 */
export function parsePluginPageRoute(route: string): PluginPageRoute | null {
  const match = /^\/plugins\/([^/]+)(?:\/(.+))?$/.exec(internalRoutePath(route));
  if (!match?.[1]) return null;
  try {
    return { pluginId: decodeURIComponent(match[1]), path: match[2] ? decodeURIComponent(match[2]) : '' };
  } catch {
    // A URIError: a hand-typed or damaged address, not a route the host made.
    return null;
  }
}
