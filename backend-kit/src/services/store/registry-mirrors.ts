import type { GuardedFetcher } from '../network/guarded-fetcher.js';
import { getStoreJson } from './store-json.js';
import { storeEndpoint } from './store-endpoint.js';

/**
 * The package mirror domains the store announces in `GET /registry` (`mirrors`: `host` or
 * `host:port` entries). Entries that are not strings are ignored; an answer without `mirrors`
 * lists none.
 *
 * @throws PluginHostError `STORE_UNAVAILABLE` when the metadata cannot be read.
 */
export async function fetchListedMirrors(fetcher: GuardedFetcher, root: URL, signal?: AbortSignal): Promise<string[]> {
  const answer = await getStoreJson(fetcher, storeEndpoint(root, 'registry'), signal ? { signal } : {});
  if (!answer.found || typeof answer.body !== 'object' || answer.body === null) return [];
  const mirrors = (answer.body as { mirrors?: unknown }).mirrors;
  return Array.isArray(mirrors) ? mirrors.filter((entry): entry is string => typeof entry === 'string') : [];
}

/**
 * True when `url`'s host is one of the `mirrors` entries (decisions section 6). An entry is
 * parsed as a URL authority with the URL's scheme, so `cdn.example.com` covers
 * `https://cdn.example.com/…` (and its explicit default port) but not another port, and case or
 * IP spellings compare as the URL parser normalizes them. No wildcards or suffixes.
 */
export function isListedMirror(url: string, mirrors: readonly string[]): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return mirrors.some((entry) => {
    if (entry === '' || /[/?#@\s\\]/.test(entry)) return false;
    try {
      return new URL(`${target.protocol}//${entry}`).host === target.host;
    } catch {
      return false;
    }
  });
}
