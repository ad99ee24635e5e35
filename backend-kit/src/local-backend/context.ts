import { join } from 'node:path';
import { resolveResourceLimits, type ResourceLimits } from '../config/resource-limits.js';
import type { BackendLogger } from '../http/logger.js';
import { DownloadManager } from '../services/downloads/download-manager.js';
import { JsonInstanceStore, type InstanceStore } from '../services/instances/instance-store.js';
import { KeyedLock } from '../services/keyed-lock.js';
import { createGuardedFetcher, type GuardedFetcher } from '../services/network/guarded-fetcher.js';
import { dataPaths, type DataPaths } from './data-paths.js';
import type { LocalBackendOptions } from './options.js';

/** What every route module and service of the local backend shares. */
export interface BackendContext {
  readonly options: Readonly<LocalBackendOptions>;
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /**
   * One lock per plugin id around every change under `plugins/<id>/` (install, overwrite,
   * rollback, uninstall, settings and cache writes), so a settings write can never land in a
   * folder that an overwrite install is moving away.
   */
  readonly pluginLock: KeyedLock;
  /** The one SSRF-guarded fetcher of every fetch made for a plugin (proxy, downloads, modpacks). */
  readonly fetcher: GuardedFetcher;
  /** The one download queue (plugin tasks and modpack installs). */
  readonly downloads: DownloadManager;
  /** The launcher's instances (the vendor's store, or `backend/instances.json`). */
  readonly instances: InstanceStore;
  /** The per-plugin resource limits (options, else the defaults of decisions section 2). */
  readonly resourceLimits: ResourceLimits;
}

/** Builds the shared context. */
export function createBackendContext(options: LocalBackendOptions, logger: BackendLogger): BackendContext {
  const paths = dataPaths(options.dataDirectory);
  const resourceLimits = resolveResourceLimits(options);
  return {
    options,
    paths,
    logger,
    pluginLock: new KeyedLock(),
    fetcher: createGuardedFetcher({ trustedHosts: options.trustedHosts ?? [] }),
    downloads: new DownloadManager({
      concurrency: resourceLimits.downloadConcurrency,
      runningPerPlugin: resourceLimits.downloadsRunningPerPlugin,
      queuedPerPlugin: resourceLimits.downloadsQueuedPerPlugin,
      logger,
    }),
    instances: options.instances ?? new JsonInstanceStore(join(paths.backend, 'instances.json')),
    resourceLimits,
  };
}
