import { randomBytes } from 'node:crypto';
import { mkdir, rm } from '../filesystem/changes.js';
import { join } from 'node:path';
import {
  PluginHostError,
  isPluginHostError,
  type AnsweringSource,
  type PackageSigner,
  type PluginInfo,
  type PluginManifest,
  type RegistrySources,
} from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { resolvePackageLimits, type PackageLimits } from '../../package/limits.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { createGuardedFetcher } from '../network/guarded-fetcher.js';
import type { PackageInspection, PluginService, VettedPackage } from '../plugin-service.js';
import { pluginInfoOf, type PermissionSummary } from '../plugins/plugin-info.js';
import { checkDownloadSize } from './download-info.js';
import type { KeptStoreDownloads } from './kept-store-downloads.js';
import { downloadFirstVerified, type PackageSource } from './package-download.js';
import { assertConsented } from './permission-consent.js';
import type { PrimaryListings } from './primary-listings.js';
import { isListedMirror } from './registry-mirrors.js';
import { storeApiRoot, storeTrustedHost } from './store-endpoint.js';
import type { StoreInspectRequest, StoreInstallRequest } from './store-install-request.js';
import { readListedPackage } from './store-listing.js';
import type { StorePackageFacts } from './store-package-facts.js';
import { assertListedPackage, assertUnsignedFromPrimary, unlistedPermissionsOf } from './store-package-rules.js';

/** Prefix of the work folders in `backend/tmp/`; listed in `WORK_PREFIXES`, so a start removes what a dead process left. */
export const STORE_DOWNLOAD_PREFIX = 'store-download-';

/** What the store installer needs. */
export interface StoreInstallerDependencies {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /**
   * Reads a downloaded package for the install dialog, and installs it; the install records the
   * source and slug with the plugin (`storeOrigin`), so update checks know its slug.
   */
  readonly plugins: Pick<PluginService, 'installPackage' | 'inspectPackage'>;
  /** The registry sources; listing and download info come from the active one, with fallback. */
  readonly sources: RegistrySources;
  /** Packages inspected and waiting for the user's answer (`backend/store-downloads/`). */
  readonly kept: KeptStoreDownloads;
  /** The primary's last known id of each slug, expected also when a backup source answers. */
  readonly primaryListings: PrimaryListings;
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
  /**
   * `update` (`POST /api/plugins/<id>/update`): an unsigned version from the primary needs no
   * `allowUnsigned`, as the installed plugin's signer rule already applies (decisions section 8).
   */
  readonly purpose?: 'install' | 'update';
}

/**
 * The answer of `POST /api/plugins/store-inspect` (decisions section 12): what the package itself
 * says, for the install dialog, which is built from it and never from the store listing.
 */
export interface StorePackageInspection extends PackageInspection {
  /** The package's SHA-256: step two installs exactly these bytes. */
  readonly sha256: string;
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** Permission ids the package asks for that the store listing did not show ("not shown in the store listing"). */
  readonly unlistedPermissions: readonly string[];
  /** `true` when the package carries no signature (installing it needs `allowUnsigned: true`). */
  readonly unsigned: boolean;
  /** The API root of the source that answered. */
  readonly source: string;
  /** `true` when that source is the primary store. */
  readonly sourcePrimary: boolean;
  /** `permissions` again, highest risk first (`render:inline` included). */
  readonly permissions: readonly PermissionSummary[];
  readonly signer: PackageSigner | null;
}

/** Installs plugins from the store sources (`POST /api/plugins/store-inspect`, `store-install`, updates). */
export interface StoreInstaller {
  /**
   * Step one: downloads `slug@version` from the answering source (the listing and its Download
   * info from the same source), checks its size, SHA-256 and signature and that it is the listed
   * plugin and version, and keeps it by digest for 15 minutes for step two. Installs nothing.
   *
   * @throws PluginHostError `STORE_NOT_CONFIGURED`, `PLUGIN_NOT_FOUND`, `STORE_UNAVAILABLE`,
   *   `STORE_PACKAGE_MISMATCH`, `PACKAGE_TOO_LARGE`, `STORE_LISTING_MISMATCH`,
   *   `SIGNATURE_INVALID` (invalid or revoked, or unsigned from a backup source), and the
   *   package reader's `INVALID_PACKAGE`, `UNSAFE_ENTRY_PATH`, `INVALID_MANIFEST`.
   */
  inspect(order: StoreInspectRequest, options?: Pick<StoreInstallOptions, 'signal'>): Promise<StorePackageInspection>;
  /**
   * Step two: installs the package step one kept under `order.sha256` (or, when it expired or no
   * digest is given, downloads it again; a digest that then differs is 409
   * `STORE_PACKAGE_CHANGED`). The package is opened and verified once, and installed only when it
   * is the listed plugin and version, every permission it asks for (beyond the installed
   * version's) is in `acceptPermissions`, and, unsigned, it came from the primary with
   * `allowUnsigned`. Records the source and slug with the plugin.
   *
   * @throws PluginHostError as {@link StoreInstaller.inspect}, plus `STORE_PACKAGE_CHANGED`,
   *   `CONSENT_REQUIRED` and everything `PluginService.installPackage` throws (`SIGNER_CHANGED`,
   *   `DOWNGRADE_REFUSED`, ...).
   */
  install(order: StoreInstallRequest, options?: StoreInstallOptions): Promise<PluginInfo>;
}

/** A package downloaded into a work folder, with what its source said. */
interface FetchedPackage {
  readonly file: string;
  readonly facts: StorePackageFacts;
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
  const { logger, paths, plugins, sources, kept, primaryListings } = deps;
  const maxPackageBytes = resolvePackageLimits(deps.packageLimits).maxPackageBytes;

  /** The mirror source, when the answering source lists its host. */
  function mirrorSource(source: AnsweringSource, mirrorUrl: string): PackageSource | null {
    if (isListedMirror(mirrorUrl, source.metadata?.mirrors ?? [])) return { name: 'mirrorUrl', url: mirrorUrl };
    logger.warn("The store's mirrorUrl is not used: its host is not listed in the store's mirrors", { host: new URL(mirrorUrl).host });
    return null;
  }

  async function listing(order: StoreInspectRequest, signal?: AbortSignal) {
    try {
      return await readListedPackage(sources, order.slug, order.version, signal);
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

  /** Downloads the listed package into `work` and says what it must be. */
  async function fetchPackage(order: StoreInspectRequest, work: string, signal?: AbortSignal): Promise<FetchedPackage> {
    const listed = await listing(order, signal);
    const info = checkDownloadSize(listed.info, maxPackageBytes);
    const { source } = listed;
    // The primary's id is the one the user knows: remembered, and expected from a backup too.
    if (source.primary) await primaryListings.remember(order.slug, listed.id);
    const listedId = source.primary ? listed.id : (primaryListings.idOf(order.slug) ?? listed.id);
    const root = storeApiRoot(source.url);
    const fetcher = createGuardedFetcher({ trustedHosts: [...(deps.trustedHosts ?? []), ...(root ? [storeTrustedHost(root)] : [])] });
    const packageSources: PackageSource[] = [{ name: 'url', url: info.url }];
    const mirror = info.mirrorUrl !== undefined && info.mirrorUrl !== info.url ? mirrorSource(source, info.mirrorUrl) : null;
    if (mirror) packageSources.push(mirror);
    const downloaded = await downloadFirstVerified(fetcher, {
      sources: packageSources,
      sha256: info.sha256,
      size: info.size,
      directory: work,
      fileName: `${order.slug}-${listed.version}.plugpkg`,
      ...(signal ? { signal } : {}),
    });
    return {
      file: downloaded.file,
      facts: {
        downloadedFrom: new URL(downloaded.url).host,
        sha256: info.sha256,
        slug: order.slug,
        version: listed.version,
        listedId,
        listedPermissions: listed.permissions,
        source: { url: source.url, primary: source.primary },
        keptAt: 0,
      },
    };
  }

  /** Runs `task` with a work folder of its own, never the plugin's final place, swept at start if the process dies. */
  async function inWorkFolder<T>(task: (work: string) => Promise<T>): Promise<T> {
    const work = join(paths.temporary, `${STORE_DOWNLOAD_PREFIX}${randomBytes(12).toString('hex')}`);
    await mkdir(work, { recursive: true });
    try {
      return await task(work);
    } finally {
      await rm(work, { recursive: true, force: true, maxRetries: 3 });
    }
  }

  /** The checks of step two, on the opened package: listing, source, the plugin updated, consent. */
  function vetter(order: StoreInstallRequest, facts: StorePackageFacts, options: StoreInstallOptions) {
    return async ({ manifest, signed }: VettedPackage): Promise<void> => {
      assertListedPackage(manifest, facts);
      assertUnsignedFromPrimary(signed, facts);
      if (options.expectedPluginId !== undefined && manifest.id !== options.expectedPluginId) {
        throw new PluginHostError(
          'INVALID_PACKAGE',
          `The store's package of ${order.slug} is plugin ${manifest.id}, not ${options.expectedPluginId}; nothing was installed`,
        );
      }
      const installed: PluginManifest | null = await readInstalledManifest(paths, manifest.id);
      const unsignedNeedsConsent = !signed && options.purpose !== 'update';
      assertConsented(installed, manifest, order, unsignedNeedsConsent);
    };
  }

  async function installFile(file: string, order: StoreInstallRequest, facts: StorePackageFacts, options: StoreInstallOptions): Promise<PluginInfo> {
    const installed = await plugins.installPackage(file, {
      enable: order.enable,
      allowDowngrade: order.allowDowngrade,
      signaturePolicy: 'if-present',
      storeOrigin: { source: facts.source.url, slug: facts.slug },
      vet: vetter(order, facts, options),
    });
    logger.info('Installed a plugin from the store', {
      slug: facts.slug,
      id: installed.id,
      version: installed.version,
      source: facts.downloadedFrom,
      registry: facts.source.url,
    });
    return pluginInfoOf(installed);
  }

  return {
    inspect(order, options = {}) {
      return inWorkFolder(async (work) => {
        const fetched = await fetchPackage(order, work, options.signal);
        const { facts } = fetched;
        // One opening of the package: archive, manifest and signature (the revocation list included).
        const inspection = await plugins.inspectPackage(fetched.file);
        if (inspection.signatureStatus === 'invalid') {
          throw new PluginHostError(
            'SIGNATURE_INVALID',
            `The package signature of ${facts.slug} ${facts.version} is invalid: ${inspection.signatureProblem?.reason ?? 'it does not verify'}; nothing was kept`,
            { check: inspection.signatureProblem?.check ?? 'signature' },
          );
        }
        const { manifest } = inspection;
        assertListedPackage(manifest, facts);
        assertUnsignedFromPrimary(inspection.signatureStatus === 'valid', facts);
        await kept.keep(fetched.file, facts);
        return {
          ...inspection,
          sha256: facts.sha256,
          id: manifest.id,
          name: manifest.name,
          version: manifest.version,
          unlistedPermissions: unlistedPermissionsOf(manifest, facts),
          unsigned: inspection.signatureStatus === 'unsigned',
          source: facts.source.url,
          sourcePrimary: facts.source.primary,
        };
      });
    },

    async install(order, options = {}) {
      const held = order.sha256 !== undefined ? await kept.use(order.sha256) : null;
      const usable = held && held.facts.slug === order.slug && (order.version === 'latest' || held.facts.version === order.version) ? held : null;
      if (held && !usable) held.release();
      if (usable) {
        try {
          const info = await installFile(usable.file, order, usable.facts, options);
          await kept.drop(usable.facts.sha256);
          return info;
        } finally {
          usable.release();
        }
      }
      return inWorkFolder(async (work) => {
        const fetched = await fetchPackage(order, work, options.signal);
        if (order.sha256 !== undefined && fetched.facts.sha256 !== order.sha256) {
          throw new PluginHostError(
            'STORE_PACKAGE_CHANGED',
            `The store now serves other bytes for ${order.slug} ${fetched.facts.version} than the install dialog showed (SHA-256 ${fetched.facts.sha256}, not ${order.sha256}); nothing was installed. Open the install dialog again.`,
            { sha256: fetched.facts.sha256 },
          );
        }
        return installFile(fetched.file, order, fetched.facts, options);
      });
    },
  };
}
