import { defaultPort } from '../network/trusted-hosts.js';

/**
 * The store's API root (`storeUrl`, e.g. `https://store.example.com/api/v1`) as a URL, or `null`
 * when none is configured or it is not an http(s) URL without credentials (`fetch` refuses those).
 * A query or fragment on the root has no meaning for the paths below it and is dropped.
 */
export function storeApiRoot(storeUrl: string | undefined): URL | null {
  if (!storeUrl) return null;
  let root: URL;
  try {
    root = new URL(storeUrl);
  } catch {
    return null;
  }
  if (root.protocol !== 'http:' && root.protocol !== 'https:') return null;
  if (root.username !== '' || root.password !== '') return null;
  root.search = '';
  root.hash = '';
  return root;
}

/**
 * `<root>/<path>`: resolved against the root as a folder, so `/api/v1` and `/api/v1/` both keep
 * their last segment. `path` is relative and already encoded.
 */
export function storeEndpoint(root: URL, path: string): URL {
  return new URL(path, root.href.endsWith('/') ? root.href : `${root.href}/`);
}

/**
 * The store's own `host:port` (the scheme's default port when the URL names none), as a
 * `trustedHosts` entry: exactly that port, not every port of the host.
 */
export function storeTrustedHost(root: URL): string {
  return `${root.hostname}:${root.port === '' ? defaultPort(root.protocol) : root.port}`;
}
