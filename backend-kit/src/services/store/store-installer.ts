import { randomBytes } from 'node:crypto';
import { mkdir, rm } from '../filesystem/changes.js';
import { join } from 'node:path';
import { PluginHostError, isPluginHostError, type AnsweringSource, type DownloadInfo, type PluginInfo, type RegistrySources } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { resolvePackageLimits, type PackageLimits } from '../../package/limits.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { createGuardedFetcher } from '../network/guarded-fetcher.js';
import type { PluginService } from '../plugin-service.js';
import { pluginInfoOf } from '../plugins/plugin-info.js';
import { checkDownloadSize } from './download-info.js';
import { downloadFirstVerified, type PackageSource } from './package-download.js';
import { assertConsented } from './permission-consent.js';
import { isListedMirror } from './registry-mirrors.js';
import { storeApiRoot, storeTrustedHost } from './store-endpoint.js';
import type { StoreInstallRequest } from './store-install-request.js';

/** Prefix of the work folders in `backend/tmp/`; listed in `WORK_PREFIXES`, so a start removes what a dead process left. */
export const STORE_DOWNLOAD_PREFIX = 'store-download-';

/** What the store installer needs. */
export interface StoreInstallerDependencies {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /**
   * Installs what was downloaded, after reading it for the consent check; the install records the
   * source and slug with the plugin (`storeOrigin`), so update checks know its slug.
   */
  readonly plugins: Pick<PluginService, 'installPackage' | 'inspectPackage'>;
  /** The registry sources; download info comes from the active one, with fallback. */
  readonly sources: RegistrySources;
  /** The backend's `trustedHosts`; the answering source's own `host:port` is added to them. */
  readonly trustedHosts?: readonly string[] | undefined;
  /** Overrides of the package limits (the download is capped at `maxPackageBytes`). */
  readonly packageLimits?: Partial<PackageLimits> | undefined;
}

/** Options of {@link StoreInstaller.install}. */
export interface StoreInstallOptions {
  /** The caller's cancellation (the HTTP client went away). */
  readonly signal?: AbortSignal | undefined;
  /** An update names the plugin it updates: a package of another plugin is refused (`INVALID_PACKAGE`) before anything is installed. */
  readonly expectedPluginId?: string | undefined;
}

/** Installs plugins from the store sources (`POST /api/plugins/store-install`, updates). */
export interface StoreInstaller {
  /**
   * Downloads `slug@version` from the active source (the next usable one when it fails), checks
   * its size and SHA-256, and installs it (signature verified when the package has one; unsigned
   * legacy versions are accepted). An overwrite that adds permissions needs them in
   * `acceptPermissions`. Records the source and slug with the plugin.
   *
   * @throws PluginHostError `STORE_NOT_CONFIGURED`, `PLUGIN_NOT_FOUND` (the store has no such
   *   published plugin or version), `STORE_UNAVAILABLE`, `STORE_PACKAGE_MISMATCH`,
   *   `PACKAGE_TOO_LARGE`, `CONSENT_REQUIRED`, and everything `PluginService.installPackage` throws
   *   (`SIGNATURE_INVALID`, `SIGNER_CHANGED`, `DOWNGRADE_REFUSED`, `INVALID_PACKAGE`, ...).
   */
  install(order: StoreInstallRequest, options?: StoreInstallOptions): Promise<PluginInfo>;
}

/**
 * Creates the store installer of a backend. Its fetches go through the SSRF guard like every
 * other fetch of the backend: the answering source is configured by the vendor or the user, not
 * by a plugin, so its own `host:port` is trusted (a store on loopback, as in the demo, works), but
 * a download URL or redirect it names pointing at any other private address is still refused,
 * and a `mirrorUrl` is used only when its host is listed in that source's `GET /registry`
 * `mirrors`. Mirrors serve only `mirrorUrl` downloads, never API calls.
 */
export function createStoreInstaller(deps: StoreInstallerDependencies): StoreInstaller {
  const { logger, paths, plugins, sources } = deps;
  const maxPackageBytes = resolvePackageLimits(deps.packageLimits).maxPackageBytes;

  /** The mirror source, when the answering source lists its host. */
  function mirrorSource(source: AnsweringSource, mirrorUrl: string): PackageSource | null {
    if (isListedMirror(mirrorUrl, source.metadata?.mirrors ?? [])) return { name: 'mirrorUrl', url: mirrorUrl };
    logger.warn("The store's mirrorUrl is not used: its host is not listed in the store's mirrors", { host: new URL(mirrorUrl).host });
    return null;
  }

  async function downloadInfo(order: StoreInstallRequest, signal?: AbortSignal): Promise<{ info: DownloadInfo; source: AnsweringSource }> {
    try {
      const { value, source } = await sources.downloadInfo(order.slug, order.version, signal ? { signal } : {});
      return { info: checkDownloadSize(value, maxPackageBytes), source };
    } catch (error) {
      if (isPluginHostError(error, 'STORE_NOT_CONFIGURED')) {
        throw new PluginHostError(
          'STORE_NOT_CONFIGURED',
          'No store is configured (storeUrl, or an enabled source in the launcher settings), so nothing can be installed from the store',
        );
      }
      if (!isPluginHostError(error, 'NOT_FOUND')) throw error;
      throw new PluginHostError(
        'PLUGIN_NOT_FOUND',
        order.version === 'latest' ? `The store has no published plugin ${order.slug}` : `The store has no published version ${order.version} of ${order.slug}`,
      );
    }
  }

  /** Reads the downloaded package and, when it would overwrite an installed plugin, applies the consent rule. */
  async function checkConsent(file: string, order: StoreInstallRequest, expectedPluginId: string | undefined): Promise<void> {
    const inspection = await plugins.inspectPackage(file);
    if (expectedPluginId !== undefined && inspection.manifest.id !== expectedPluginId) {
      throw new PluginHostError(
        'INVALID_PACKAGE',
        `The store's package of ${order.slug} is plugin ${inspection.manifest.id}, not ${expectedPluginId}; nothing was installed`,
      );
    }
    // A package the install will refuse anyway (bad or revoked signature) gets that error, not a consent question.
    if (inspection.signatureStatus === 'invalid') return;
    const installed = await readInstalledManifest(paths, inspection.manifest.id);
    if (installed) assertConsented(installed, inspection.manifest, order.acceptPermissions);
  }

  return {
    async install(order, options = {}) {
      const { signal } = options;
      const { info, source } = await downloadInfo(order, signal);
      const root = storeApiRoot(source.url);
      const fetcher = createGuardedFetcher({ trustedHosts: [...(deps.trustedHosts ?? []), ...(root ? [storeTrustedHost(root)] : [])] });
      const packageSources: PackageSource[] = [{ name: 'url', url: info.url }];
      const mirror = info.mirrorUrl !== undefined && info.mirrorUrl !== info.url ? mirrorSource(source, info.mirrorUrl) : null;
      if (mirror) packageSources.push(mirror);

      // A work folder of its own: never the plugin's final place, and swept at start if the process dies.
      const work = join(paths.temporary, `${STORE_DOWNLOAD_PREFIX}${randomBytes(12).toString('hex')}`);
      await mkdir(work, { recursive: true });
      try {
        const downloaded = await downloadFirstVerified(fetcher, {
          sources: packageSources,
          sha256: info.sha256,
          size: info.size,
          directory: work,
          fileName: `${order.slug}-${order.version}.plugpkg`,
          ...(signal ? { signal } : {}),
        });
        await checkConsent(downloaded.file, order, options.expectedPluginId);
        const installed = await plugins.installPackage(downloaded.file, {
          enable: order.enable,
          allowDowngrade: order.allowDowngrade,
          signaturePolicy: 'if-present',
          storeOrigin: { source: source.url, slug: order.slug },
        });
        logger.info('Installed a plugin from the store', {
          slug: order.slug,
          id: installed.id,
          version: installed.version,
          source: new URL(downloaded.url).host,
          registry: source.url,
        });
        return pluginInfoOf(installed);
      } finally {
        await rm(work, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}
