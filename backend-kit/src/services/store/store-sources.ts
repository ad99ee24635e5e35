import { createRegistrySources, type RegistrySources, type RegistryTimer } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { LauncherSettingsStore } from '../launcher-settings/launcher-settings-store.js';
import { createGuardedFetcher } from '../network/guarded-fetcher.js';
import { guardedRegistryFetch, type StoreRequestLimits } from './guarded-registry-fetch.js';
import { storeApiRoot, storeTrustedHost } from './store-endpoint.js';

/**
 * The guard's own deadline is a backstop only: the sources' deadlines (5 s discovery, 10 s calls)
 * end a call first. A detail answer with many versions and changelogs, or a long revocation
 * list, fits in 2 MiB.
 */
const SOURCE_LIMITS: StoreRequestLimits = { timeoutMs: 30_000, limitBytes: 2 * 1024 * 1024 };

/** Options of {@link createStoreSources}. */
export interface StoreSourcesOptions {
  readonly settings: LauncherSettingsStore;
  /** The vendor's `trustedHosts`; each source's own `host:port` is added for its requests only. */
  readonly trustedHosts?: readonly string[] | undefined;
  readonly timer?: RegistryTimer | undefined;
  readonly logger: BackendLogger;
}

/**
 * The backend's registry sources: the launcher settings' `registryUrl` list behind the core's
 * fallback rules. Each source's requests go through the SSRF guard with exactly that source's
 * `host:port` trusted (the user or vendor chose it; a store on loopback works), never another
 * private address. When the settings' sources change, the list is replaced and discovered again.
 */
export function createStoreSources(options: StoreSourcesOptions): RegistrySources {
  const { settings, logger } = options;
  const fetchFor = (url: string) => {
    const root = storeApiRoot(url);
    const trustedHosts = [...(options.trustedHosts ?? []), ...(root ? [storeTrustedHost(root)] : [])];
    return guardedRegistryFetch(createGuardedFetcher({ trustedHosts }), SOURCE_LIMITS);
  };
  const sources = createRegistrySources({
    sources: settings.get().registryUrl,
    fetchFor,
    ...(options.timer ? { timer: options.timer } : {}),
  });
  settings.onChange((next, previous) => {
    if (JSON.stringify(next.registryUrl) === JSON.stringify(previous.registryUrl)) return;
    sources.configure(next.registryUrl).catch((error: unknown) => {
      logger.error('The store sources could not be discovered after a settings change', { error: error instanceof Error ? error.message : String(error) });
    });
  });
  return sources;
}
