/**
 * A small isomorphic client of the open registry protocol's read routes. It takes the `fetch` to
 * use, so the browser passes its own and the local backend passes one that goes through its SSRF
 * guard with deadlines and body limits. No DOM, no `node:` imports.
 */
import { isPluginHostError } from '../errors.js';
import { registryRequestError, type RegistryFailure } from './registry-failure.js';
import {
  isJsonObject,
  readCount,
  readDownloadInfo,
  findDownloadInfoProblem,
  readRegistryMetadata,
  readRegistryPlugin,
  readRegistryPluginDetail,
  readUpdateItem,
} from './registry-readers.js';
import {
  LATEST_VERSION_ALIAS,
  REVOCATION_LIST_PATH,
  type CheckUpdatesRequest,
  type CheckUpdatesResponse,
  type DownloadInfo,
  type RegistryListQuery,
  type RegistryMetadata,
  type RegistryPlugin,
  type RegistryPluginDetail,
  type RegistryPluginList,
  type UpdateItem,
} from './registry-types.js';

/** What the client hands its `fetch`: a subset of `RequestInit`. */
export interface RegistryFetchInit {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

/** What the client reads of an answer: a subset of the Fetch API's `Response`. */
export interface RegistryFetchResponse {
  readonly status: number;
  readonly ok: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The fetch the client uses; the platform's `fetch` fits. It rejects when no answer came. */
export type RegistryFetch = (url: string, init: RegistryFetchInit) => Promise<RegistryFetchResponse>;

/** Options of {@link createRegistryClient}. */
export interface RegistryClientOptions {
  /** The registry's API root, e.g. `https://store.example.com/api/v1` (trailing slashes are ignored). */
  readonly baseUrl: string;
  /** The fetch to use: `globalThis.fetch` in a browser, the backend's guarded fetch on the server. */
  readonly fetch: RegistryFetch;
}

/** Per-call options. */
export interface RegistryCallOptions {
  /** Cancels the request; the call then rejects with the fetch's own abort error. */
  readonly signal?: AbortSignal;
}

/** The typed read routes of one registry. */
export interface RegistryClient {
  /** The API root requests go to, without trailing slashes. */
  readonly baseUrl: string;
  /** `GET /registry`. */
  metadata(options?: RegistryCallOptions): Promise<RegistryMetadata>;
  /**
   * `GET /plugins` with the query. Items without an id, slug or name are left out; `total` is at
   * least the number of items; a missing `page` or `pageSize` is the one asked for.
   */
  list(query?: RegistryListQuery, options?: RegistryCallOptions): Promise<RegistryPluginList>;
  /** `GET /plugins/<slug>`: the plugin and its published versions, in the order sent. */
  detail(slug: string, options?: RegistryCallOptions): Promise<RegistryPluginDetail>;
  /** `GET /plugins/<slug>/versions/<version>/download`; `version` may be `latest`. */
  downloadInfo(slug: string, version: string, options?: RegistryCallOptions): Promise<DownloadInfo>;
  /** `POST /plugins/check-updates`; items that are not usable are left out. */
  checkUpdates(request: CheckUpdatesRequest, options?: RegistryCallOptions): Promise<CheckUpdatesResponse>;
  /**
   * `GET /developer/keys/revoked`: the list's bytes exactly as served, not yet trusted. Verify
   * them with `verifyRevocationList(bytes, rootPublicKey)`, which reads the JSON (refusing
   * duplicate keys) and checks the root signature.
   */
  revocationList(options?: RegistryCallOptions): Promise<Uint8Array>;
}

// `fatal`: a body that is not UTF-8 is refused rather than read with replacement characters.
const decoder = new TextDecoder('utf-8', { fatal: true });

/** `host[:port]` of an absolute URL, for messages; the URL itself when it has no authority. */
function hostOf(url: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1];
  return authority ? authority.slice(authority.lastIndexOf('@') + 1) : url;
}

function query(parameters: RegistryListQuery): string {
  const pairs: [string, string][] = [];
  const add = (name: string, value: string | number | undefined): void => {
    if (value !== undefined && String(value).trim() !== '') pairs.push([name, String(value).trim()]);
  };
  add('q', parameters.q);
  add('category', parameters.category);
  if (parameters.tags && parameters.tags.length > 0) add('tags', parameters.tags.join(','));
  add('sort', parameters.sort);
  add('page', parameters.page);
  add('pageSize', parameters.pageSize);
  add('minLauncherVersion', parameters.minLauncherVersion);
  return pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

/**
 * Creates a client of one registry. Every method rejects with a `PluginHostError` whose
 * `details` is a {@link RegistryFailure} (read it with `registryFailureOf`): code `NOT_FOUND` for a
 * 404 answer, `STORE_UNAVAILABLE` when there was no answer, an error status (the registry's
 * `{error: {code, message}}` gives the message and `registryCode`) or an answer that is not the
 * protocol's JSON. A cancelled call rejects with the fetch's abort error as it is.
 *
 * @example
 * ```ts
 * const registry = createRegistryClient({ baseUrl: 'https://store.example.com/api/v1', fetch: globalThis.fetch });
 * const page = await registry.list({ q: 'map', sort: 'rating', pageSize: 10 });
 * const info = await registry.downloadInfo(page.items[0].slug, 'latest');
 * ```
 */
export function createRegistryClient(options: RegistryClientOptions): RegistryClient {
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
  const send = options.fetch;

  async function request(path: string, init: Omit<RegistryFetchInit, 'signal'>, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const url = `${baseUrl}/${path}`;
    const host = hostOf(url);
    const fail = (message: string, failure: Omit<RegistryFailure, 'url'>): Error => registryRequestError(message, { ...failure, url });
    let response: RegistryFetchResponse;
    try {
      response = await send(url, { ...init, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw error;
      // The guarded fetcher says why (a private address, a timeout); a browser's TypeError says nothing useful.
      const reason = isPluginHostError(error) ? ` (${error.message})` : '';
      throw fail(`No answer from ${host}${reason}. Check your connection and try again.`, { registryFailure: 'unreachable' });
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (signal?.aborted) throw error;
      if (response.ok) {
        const reason = isPluginHostError(error) ? `: ${error.message}` : '';
        throw fail(`The store at ${host} did not send its whole answer${reason}.`, { registryFailure: 'unreachable', status: response.status });
      }
    }
    if (!response.ok) {
      const body = bytes ? parseJson(bytes) : undefined;
      const problem = isJsonObject(body) && isJsonObject(body.error) ? body.error : undefined;
      const message = typeof problem?.message === 'string' ? problem.message.trim() : '';
      const registryCode = typeof problem?.code === 'string' ? problem.code : undefined;
      throw fail(message !== '' ? message : `The store answered with an error (HTTP ${response.status}).`, {
        registryFailure: 'registry',
        status: response.status,
        ...(registryCode !== undefined ? { registryCode } : {}),
      });
    }
    return bytes ?? new Uint8Array();
  }

  function parseJson(bytes: Uint8Array): unknown {
    try {
      return JSON.parse(decoder.decode(bytes)) as unknown;
    } catch {
      return undefined;
    }
  }

  async function getJson(path: string, signal: AbortSignal | undefined, init?: Omit<RegistryFetchInit, 'signal'>): Promise<unknown> {
    const url = `${baseUrl}/${path}`;
    const bytes = await request(path, init ?? { method: 'GET', headers: { Accept: 'application/json' } }, signal);
    const body = parseJson(bytes);
    if (body === undefined) {
      throw registryRequestError('The store sent an answer that is not valid JSON.', { registryFailure: 'invalid', url });
    }
    return body;
  }

  function invalid(path: string, message: string): Error {
    return registryRequestError(message, { registryFailure: 'invalid', url: `${baseUrl}/${path}` });
  }

  return {
    baseUrl,

    async metadata(call = {}) {
      const body = await getJson('registry', call.signal);
      const metadata = readRegistryMetadata(body);
      if (!metadata) throw invalid('registry', 'The store sent registry metadata this launcher does not understand.');
      return metadata;
    },

    async list(parameters = {}, call = {}) {
      const path = `plugins${query(parameters)}`;
      const body = await getJson(path, call.signal);
      if (!isJsonObject(body) || !Array.isArray(body.items)) throw invalid(path, 'The store sent a plugin list this launcher does not understand.');
      const items = body.items.map(readRegistryPlugin).filter((item): item is RegistryPlugin => item !== null);
      return {
        total: Math.max(readCount(body.total), items.length),
        page: readCount(body.page) || (parameters.page ?? 1),
        pageSize: readCount(body.pageSize) || (parameters.pageSize ?? 20),
        items,
      };
    },

    async detail(slug, call = {}) {
      const path = `plugins/${encodeURIComponent(slug)}`;
      const detail = readRegistryPluginDetail(await getJson(path, call.signal));
      if (!detail) throw invalid(path, 'The store sent plugin details this launcher does not understand.');
      return detail;
    },

    async downloadInfo(slug, version, call = {}) {
      const path = `plugins/${encodeURIComponent(slug)}/versions/${encodeURIComponent(version || LATEST_VERSION_ALIAS)}/download`;
      const body = await getJson(path, call.signal);
      const info = readDownloadInfo(body);
      if (!info) throw invalid(path, `The store answered unusable download info: ${findDownloadInfoProblem(body) ?? 'not usable'}`);
      return info;
    },

    async checkUpdates(updateRequest, call = {}) {
      const path = 'plugins/check-updates';
      const body = await getJson(path, call.signal, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({
          launcherVersion: updateRequest.launcherVersion,
          installed: updateRequest.installed.map(({ slug, version }) => ({ slug, version })),
        }),
      });
      if (!isJsonObject(body) || !Array.isArray(body.updates)) throw invalid(path, 'The store sent update information this launcher does not understand.');
      return { updates: body.updates.map(readUpdateItem).filter((item): item is UpdateItem => item !== null) };
    },

    async revocationList(call = {}) {
      return request(REVOCATION_LIST_PATH, { method: 'GET', headers: { Accept: 'application/json' } }, call.signal);
    },
  };
}
