import { internalRoutePath, parsePluginPageRoute } from '@plughost/host-sdk/core';

/** The harness page's views, kept in the URL fragment so a reload stays on the same one. */
export type HarnessRoute =
  | { readonly page: 'plugin'; readonly pluginId: string; readonly path: string }
  | { readonly page: 'settings' }
  /** No view chosen yet: the first plugin's page. */
  | { readonly page: 'start' }
  | { readonly page: 'not-found'; readonly route: string };

/** Parses an internal route the way a launcher does (`/plugins/<id>/<path>` by the host SDK's rule, `/settings`); query and fragment are ignored. */
export function parseRoute(route: string): HarnessRoute {
  const path = internalRoutePath(route);
  if (path === '/') return { page: 'start' };
  if (path === '/settings') return { page: 'settings' };
  const plugin = parsePluginPageRoute(path);
  return plugin ? { page: 'plugin', ...plugin } : { page: 'not-found', route: path };
}

/** The route in the page's URL fragment (`#/settings`), or `/`. */
export function currentRoute(): string {
  return location.hash.startsWith('#/') ? location.hash.slice(1) : '/';
}

/** Goes to an internal route. */
export function goTo(route: string): void {
  location.hash = route;
}
