import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PluginHostError, createRegistryClient, isPluginHostError, type DownloadInfo, type PluginInfo, type RegistryClient } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { resolvePackageLimits, type PackageLimits } from '../../package/limits.js';
import { createGuardedFetcher, type GuardedFetcher } from '../network/guarded-fetcher.js';
import type { PluginService } from '../plugin-service.js';
import { pluginInfoOf } from '../plugins/plugin-info.js';
import { checkDownloadSize } from './download-info.js';
import { guardedRegistryFetch } from './guarded-registry-fetch.js';
import { downloadFirstVerified, type PackageSource } from './package-download.js';
import { fetchListedMirrors, isListedMirror } from './registry-mirrors.js';
import { storeApiRoot, storeTrustedHost } from './store-endpoint.js';
import type { StoreInstallRequest } from './store-install-request.js';

/** Prefix of the work folders in `backend/tmp/`; listed in `WORK_PREFIXES`, so a start removes what a dead process left. */
export const STORE_DOWNLOAD_PREFIX = 'store-download-';

/** What the store installer needs. */
export interface StoreInstallerDependencies {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /** Installs what was downloaded. */
  readonly plugins: Pick<PluginService, 'installPackage'>;
  /** The primary store's API root; without one every install is refused with `STORE_NOT_CONFIGURED`. */
  readonly storeUrl?: string | undefined;
  /** The backend's `trustedHosts`; the store's own `host:port` is added to them. */
  readonly trustedHosts?: readonly string[] | undefined;
  /** Overrides of the package limits (the download is capped at `maxPackageBytes`). */
  readonly packageLimits?: Partial<PackageLimits> | undefined;
}

/** Installs plugins from the primary store (`POST /api/plugins/store-install`). */
export interface StoreInstaller {
  /**
   * Downloads `slug@version` from the store, checks its size and SHA-256, and installs it
   * (signature verified when the package has one; unsigned legacy versions are accepted).
   *
   * @throws PluginHostError `STORE_NOT_CONFIGURED`, `PLUGIN_NOT_FOUND` (the store has no such
   *   published plugin or version), `STORE_UNAVAILABLE`, `STORE_PACKAGE_MISMATCH`,
   *   `PACKAGE_TOO_LARGE`, and everything `PluginService.installPackage` throws
   *   (`SIGNATURE_INVALID`, `SIGNER_CHANGED`, `INVALID_PACKAGE`, ...).
   */
  install(request: StoreInstallRequest, signal?: AbortSignal): Promise<PluginInfo>;
}

/**
 * Creates the store installer of a backend. Its fetches go through the SSRF guard like every
 * other fetch of the backend: the store is configured by the vendor, not by a plugin, so its own
 * `host:port` is trusted (a store on loopback, as in the demo, works), but a download URL or
 * redirect it names pointing at any other private address is still refused, and a `mirrorUrl` is
 * used only when its host is listed in the store's `GET /registry` `mirrors`.
 */
export function createStoreInstaller(deps: StoreInstallerDependencies): StoreInstaller {
  const { logger, paths, plugins } = deps;
  const root = storeApiRoot(deps.storeUrl);
  const fetcher: GuardedFetcher | undefined = root ? createGuardedFetcher({ trustedHosts: [...(deps.trustedHosts ?? []), storeTrustedHost(root)] }) : undefined;
  // The core's registry client reads the store's answers; its requests go through the guard.
  const registry: RegistryClient | undefined = root && fetcher ? createRegistryClient({ baseUrl: root.href, fetch: guardedRegistryFetch(fetcher) }) : undefined;
  const maxPackageBytes = resolvePackageLimits(deps.packageLimits).maxPackageBytes;

  /** The mirror source: usable only once `GET /registry` has confirmed its host. */
  function mirrorSource(store: RegistryClient, mirrorUrl: string): PackageSource {
    return {
      name: 'mirrorUrl',
      url: async (signal) => {
        let mirrors: readonly string[];
        try {
          mirrors = await fetchListedMirrors(store, { signal });
        } catch (error) {
          if (!signal.aborted)
            logger.warn('The store mirror is not used: the store metadata could not be read', {
              error: error instanceof Error ? error.message : String(error),
            });
          return null;
        }
        if (isListedMirror(mirrorUrl, mirrors)) return mirrorUrl;
        logger.warn("The store's mirrorUrl is not used: its host is not listed in the store's mirrors", { host: new URL(mirrorUrl).host });
        return null;
      },
    };
  }

  async function downloadInfo(store: RegistryClient, request: StoreInstallRequest, signal?: AbortSignal): Promise<DownloadInfo> {
    let info: DownloadInfo;
    try {
      info = await store.downloadInfo(request.slug, request.version, signal ? { signal } : {});
    } catch (error) {
      if (!isPluginHostError(error, 'NOT_FOUND')) throw error;
      throw new PluginHostError(
        'PLUGIN_NOT_FOUND',
        request.version === 'latest'
          ? `The store has no published plugin ${request.slug}`
          : `The store has no published version ${request.version} of ${request.slug}`,
      );
    }
    return checkDownloadSize(info, maxPackageBytes);
  }

  return {
    async install(request, signal) {
      if (!registry || !fetcher) {
        throw new PluginHostError(
          'STORE_NOT_CONFIGURED',
          deps.storeUrl
            ? 'The configured storeUrl is not an http(s) URL, so nothing can be installed from the store'
            : 'No store is configured (storeUrl), so nothing can be installed from the store',
        );
      }
      const info = await downloadInfo(registry, request, signal);
      const sources: PackageSource[] = [{ name: 'url', url: info.url }];
      if (info.mirrorUrl !== undefined && info.mirrorUrl !== info.url) sources.push(mirrorSource(registry, info.mirrorUrl));

      // A work folder of its own: never the plugin's final place, and swept at start if the process dies.
      const work = join(paths.temporary, `${STORE_DOWNLOAD_PREFIX}${randomBytes(12).toString('hex')}`);
      await mkdir(work, { recursive: true });
      try {
        const downloaded = await downloadFirstVerified(fetcher, {
          sources,
          sha256: info.sha256,
          size: info.size,
          directory: work,
          fileName: `${request.slug}-${request.version}.plugpkg`,
          ...(signal ? { signal } : {}),
        });
        const installed = await plugins.installPackage(downloaded.file, {
          enable: request.enable,
          allowDowngrade: request.allowDowngrade,
          signaturePolicy: 'if-present',
        });
        logger.info('Installed a plugin from the store', {
          slug: request.slug,
          id: installed.id,
          version: installed.version,
          source: new URL(downloaded.url).host,
        });
        return pluginInfoOf(installed);
      } finally {
        await rm(work, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}
