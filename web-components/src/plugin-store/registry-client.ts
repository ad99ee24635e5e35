/**
 * The two reads of the open registry protocol the store browser needs (`GET /plugins` and
 * `GET /plugins/<slug>`), made with the host SDK core's registry client, whose readers check the
 * answers field by field (a registry is another party). The protocol's types are the core's; the
 * `Store*` names are the ones this package has always exported.
 */
import {
  REGISTRY_SORTS,
  createRegistryClient,
  registryRequestError,
  type RegistryClient,
  type RegistryPlugin,
  type RegistryPluginDetail,
  type RegistryPluginList,
  type RegistrySort,
  type RegistryVersionEntry,
} from '@plughost/host-sdk/core';

/** The `sort` values of `GET /plugins`. */
export const STORE_SORTS = REGISTRY_SORTS;

/** One `sort` value of `GET /plugins`. */
export type StoreSort = RegistrySort;

/** A Registry Plugin object (docs/registry.md, `GET /plugins`). */
export type StorePlugin = RegistryPlugin;

/** One published version in `GET /plugins/<slug>`. */
export type StoreVersion = RegistryVersionEntry;

/** The answer of `GET /plugins/<slug>`: the plugin and its published versions. */
export type StorePluginDetail = RegistryPluginDetail;

/** One page of `GET /plugins`. */
export type StorePage = RegistryPluginList;

/** What `GET /plugins` is asked for. */
export interface StoreQuery {
  readonly q: string;
  readonly category: string;
  readonly sort: StoreSort;
  readonly page: number;
  readonly pageSize: number;
}

/**
 * The client of `registryUrl`, resolved against the page (a relative root works). The platform's
 * `fetch` is looked up at each request, so a page that wraps `fetch` later is honoured.
 *
 * @throws PluginHostError `STORE_UNAVAILABLE` (`unreachable`) when the address is not a URL.
 */
function clientOf(registryUrl: string): RegistryClient {
  let baseUrl: string;
  try {
    baseUrl = new URL(registryUrl.trim(), document.baseURI).href;
  } catch {
    throw registryRequestError(`The store address is not a valid URL: ${registryUrl}`, { registryFailure: 'unreachable', url: registryUrl });
  }
  return createRegistryClient({ baseUrl, fetch: (url, init) => fetch(url, init) });
}

/** The two reads the store makes, wherever they go: one registry, or the launcher's sources with fallback. */
export interface StoreCatalog {
  /** `GET /plugins` with the query (empty `q` and `category` are left out). */
  list(query: StoreQuery, signal: AbortSignal): Promise<StorePage>;
  /** `GET /plugins/<slug>`. */
  detail(slug: string, signal: AbortSignal): Promise<StorePluginDetail>;
}

/** `GET {registryUrl}/plugins` with the query (empty `q` and `category` are left out). */
export async function fetchStorePage(registryUrl: string, query: StoreQuery, signal: AbortSignal): Promise<StorePage> {
  const { q, category, sort, page, pageSize } = query;
  return clientOf(registryUrl).list({ q, category, sort, page, pageSize }, { signal });
}

/** `GET {registryUrl}/plugins/<slug>`. */
export async function fetchStorePlugin(registryUrl: string, slug: string, signal: AbortSignal): Promise<StorePluginDetail> {
  return clientOf(registryUrl).detail(slug, { signal });
}

/** The catalog of the one registry at `registryUrl` (the `registry-url` attribute), without fallback. */
export function directCatalog(registryUrl: string): StoreCatalog {
  return {
    list: (query, signal) => fetchStorePage(registryUrl, query, signal),
    detail: (slug, signal) => fetchStorePlugin(registryUrl, slug, signal),
  };
}
