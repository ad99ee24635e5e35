import type { RegistrySources, SourceCall, SourceCallOptions, SourcedResult } from './registry-sources.js';

/**
 * The sources seen through one of them: every read (`read`, `list`, `detail`, `downloadInfo`,
 * `checkUpdates`, `revocationList`) runs on the configured source `url` only, with no fallback
 * ({@link RegistrySources.onSource}); status, discovery, the primary and `onSource` stay the
 * sources' own. Code written against the sources (a store installer) then downloads from exactly
 * that source, as an update that only it offered must (decisions section 12).
 *
 * @example
 * ```ts
 * const backupOnly = pinnedSources(sources, 'https://backup.example.net/api/v1');
 * const info = await backupOnly.downloadInfo('hello', '1.1.0'); // never from another source
 * ```
 */
export function pinnedSources(sources: RegistrySources, url: string): RegistrySources {
  const read = <T>(call: SourceCall<T>, options?: SourceCallOptions): Promise<SourcedResult<T>> => sources.onSource(url, call, options);
  return {
    status: () => sources.status(),
    discover: () => sources.discover(),
    discovered: () => sources.discovered(),
    retry: () => sources.retry(),
    configure: (configs) => sources.configure(configs),
    primary: () => sources.primary(),
    read,
    onPrimary: (call, options) => sources.onPrimary(call, options),
    onSource: (other, call, options) => sources.onSource(other, call, options),
    list: async (query = {}, options = {}) => (await read((client, signal) => client.list(query, { signal }), options)).value,
    detail: async (slug, options = {}) => (await read((client, signal) => client.detail(slug, { signal }), options)).value,
    downloadInfo: (slug, version, options = {}) => read((client, signal) => client.downloadInfo(slug, version, { signal }), options),
    checkUpdates: async (request, options = {}) => (await read((client, signal) => client.checkUpdates(request, { signal }), options)).value,
    revocationList: async (options = {}) => (await read((client, signal) => client.revocationList({ signal }), options)).value,
  };
}
