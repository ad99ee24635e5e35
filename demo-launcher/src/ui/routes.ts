import { internalRoutePath, parsePluginPageRoute } from '@plughost/host-sdk/core';

/** The launcher's pages; plugin pages are `/plugins/<id>/<path>`. */
export type LauncherRoute =
  | { readonly page: 'home' }
  | { readonly page: 'plugins' }
  | { readonly page: 'downloads' }
  | { readonly page: 'store' }
  | { readonly page: 'settings' }
  | { readonly page: 'instance'; readonly instanceId: string }
  | { readonly page: 'plugin'; readonly pluginId: string; readonly path: string }
  | { readonly page: 'not-found'; readonly route: string };

/** Parses an internal route (`/settings`, `/instances/<id>`, `/plugins/<id>/<path>`); query and fragment are ignored. */
export function parseRoute(route: string): LauncherRoute {
  const path = internalRoutePath(route);
  if (path === '/' || path === '/home') return { page: 'home' };
  if (path === '/plugins') return { page: 'plugins' };
  if (path === '/downloads') return { page: 'downloads' };
  if (path === '/store') return { page: 'store' };
  if (path === '/settings') return { page: 'settings' };
  const instance = /^\/instances\/([^/]+)$/.exec(path);
  if (instance?.[1]) {
    const instanceId = decodedOrNull(instance[1]);
    return instanceId === null ? { page: 'not-found', route: path } : { page: 'instance', instanceId };
  }
  const plugin = parsePluginPageRoute(path);
  return plugin ? { page: 'plugin', ...plugin } : { page: 'not-found', route: path };
}

/** `text` percent-decoded, or `null` for a damaged (hand-typed) encoding, which is "not found" rather than a thrown URIError. */
function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** The current route, kept in the URL fragment so a reload stays on the same page. */
export function currentRoute(): string {
  return location.hash.startsWith('#/') ? location.hash.slice(1) : '/';
}

/** Goes to an internal route. */
export function goTo(route: string): void {
  location.hash = route;
}
