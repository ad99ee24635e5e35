import { mkdir } from '../services/filesystem/changes.js';
import { join } from 'node:path';
import { dataPaths, type DataPaths } from '../config/data-paths.js';
import { resolveResourceLimits, type ResourceLimits } from '../config/resource-limits.js';
import type { BackendLogger } from '../http/logger.js';
import { resolvePackageLimits } from '../package/limits.js';
import { DownloadManager } from '../services/downloads/download-manager.js';
import { createFileTasks, type FileTasks } from '../services/downloads/file-task.js';
import { createFileAuthorizations, type FileAuthorizations } from '../services/filesystem/file-authorizations.js';
import { JsonInstanceStore, type InstanceStore } from '../services/instances/instance-store.js';
import { KeyedLock } from '../services/keyed-lock.js';
import { createModpackInstaller, type ModpackInstaller } from '../services/modpacks/install-modpack.js';
import { createGuardedFetcher, type GuardedFetcher } from '../services/network/guarded-fetcher.js';
import { createCacheStore, type CacheStore } from '../services/plugin-data/cache-store.js';
import { createSettingsStore, type SettingsStore } from '../services/plugin-data/settings-store.js';
import { createPluginService, type PluginService } from '../services/plugin-service.js';
import { createDevPluginService, type DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';
import { createRevocationService, type ManagedRevocationService } from '../services/revocation/revocation-service.js';
import { createPluginShell, type PluginShell } from '../services/shell/plugin-shell.js';
import { createLauncherSettingsStore, type LauncherSettingsStore } from '../services/launcher-settings/launcher-settings-store.js';
import { openKeptStoreDownloads, type KeptStoreDownloads } from '../services/store/kept-store-downloads.js';
import { loadPrimaryListings } from '../services/store/primary-listings.js';
import { createStoreInstaller, type StoreInstaller } from '../services/store/store-installer.js';
import { loadStoreOrigins } from '../services/store/store-origins.js';
import { createStoreSources } from '../services/store/store-sources.js';
import { createUpdateService, type UpdateService } from '../services/updates/update-service.js';
import { childEnvironment } from '../services/system/child-environment.js';
import { createSystemInfoReader, type SystemInfoReader } from '../services/system/system-info.js';
import { openWithPlatformOpener } from '../services/system/url-opener.js';
import { createPluginErrorForwarding } from '../services/telemetry/plugin-error-forwarding.js';
import type { ReportForwarder } from '../services/telemetry/report-forwarder.js';
import { createWasmService, type WasmService } from '../services/wasm/wasm-service.js';
import { pinnedSources, systemRegistryTimer, type RegistrySources } from '@plughost/host-sdk/core';
import type { LocalBackendOptions } from './options.js';

/**
 * Every service of one local backend, built once by {@link createLocalServices}. Each router
 * gets only the few it needs (see `createLocalBackend`); nothing else holds this object.
 */
export interface LocalBackendServices {
  /** The layout of the data directory. */
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /** The per-plugin resource limits (options, else the defaults of decisions section 2). */
  readonly limits: ResourceLimits;
  /** The one SSRF-guarded fetcher of every fetch made for a plugin (proxy, downloads, modpacks). */
  readonly fetcher: GuardedFetcher;
  /** The one download queue (plugin tasks and modpack installs). */
  readonly downloads: DownloadManager;
  /** The launcher's instances (the vendor's store, or `backend/instances.json`). */
  readonly instances: InstanceStore;
  /** The user's file consent, shared by the file routes, downloads, modpacks and uninstall. */
  readonly authorizations: FileAuthorizations;
  /** The primary store's revocation list of developer keys. */
  readonly revocation: ManagedRevocationService;
  /** `launcher-settings.json`: installation id, telemetry opt-in, store sources, update interval. */
  readonly launcherSettings: LauncherSettingsStore;
  /** The store sources of the settings, with discovery and fallback. */
  readonly sources: RegistrySources;
  /** Update checks and the upgrade pipeline. */
  readonly updates: UpdateService;
  /** The plugin lifecycle. */
  readonly plugins: PluginService;
  /** The plugins of running dev servers (development mode; lists nothing unless `devPlugins`). */
  readonly devPlugins: DevPluginService;
  /** Where package uploads are received (`backend/tmp/`, beside `plugins/` so renames work), and their largest size. */
  readonly packageUploads: { readonly directory: string; readonly maxPackageBytes: number };
  readonly store: StoreInstaller;
  /** Store packages between the install dialog and the user's answer (their expiry timer stops at close). */
  readonly keptStoreDownloads: KeptStoreDownloads;
  readonly settings: SettingsStore;
  readonly cache: CacheStore;
  readonly systemInfo: SystemInfoReader;
  /** Opens an http(s) URL in the user's browser. */
  readonly openUrl: (url: string) => Promise<void>;
  /** Plugin error reports on their way to the store. */
  readonly telemetry: ReportForwarder;
  readonly shell: PluginShell;
  readonly wasm: WasmService;
  readonly fileTasks: FileTasks;
  readonly modpacks: ModpackInstaller;
}

/**
 * Builds the services of a backend from its (already checked) options: prepares the data
 * directory, loads the launcher settings and the kept revocation list, recovers interrupted plugin
 * transactions and reads the plugin state. The first update check (source discovery, revocation
 * list, check-updates) then runs in the background, so a slow or unreachable store never delays
 * the start.
 */
export async function createLocalServices(options: LocalBackendOptions, logger: BackendLogger): Promise<LocalBackendServices> {
  const paths = dataPaths(options.dataDirectory);
  const limits = resolveResourceLimits(options);
  const packageLimits = options.packageLimits;
  // One lock per plugin id around every change under `plugins/<id>/`, shared by the plugin
  // service and the settings and cache stores.
  const pluginLock = new KeyedLock();
  const fetcher = createGuardedFetcher({ trustedHosts: options.trustedHosts ?? [] });
  const downloads = new DownloadManager({
    concurrency: limits.downloadConcurrency,
    runningPerPlugin: limits.downloadsRunningPerPlugin,
    queuedPerPlugin: limits.downloadsQueuedPerPlugin,
    logger,
  });
  const instances = options.instances ?? new JsonInstanceStore(join(paths.backend, 'instances.json'));
  const authorizations = createFileAuthorizations(paths);
  await mkdir(paths.plugins, { recursive: true });
  await mkdir(paths.temporary, { recursive: true });

  const devPlugins = await createDevPluginService(options.devPlugins === true, {
    dataDirectory: paths.root,
    logger,
    ...(options.devPluginReconnectDelaysMs ? { link: { reconnectDelaysMs: options.devPluginReconnectDelaysMs } } : {}),
  });
  const isDevPlugin = (id: string): boolean => devPlugins.has(id);
  const timer = options.timer ?? systemRegistryTimer;
  const launcherSettings = await createLauncherSettingsStore({ paths, logger, pinnedPrimary: options.storeUrl });
  const sources = createStoreSources({ settings: launcherSettings, trustedHosts: options.trustedHosts, timer, logger });

  // The kept list applies before the first install is checked.
  const revocation = createRevocationService({ paths, rootPublicKey: options.rootPublicKey, sources, logger });
  await revocation.load();
  const origins = await loadStoreOrigins(paths, logger);
  const plugins = await createPluginService({
    paths,
    logger,
    pluginLock,
    rootPublicKey: options.rootPublicKey,
    packageLimits,
    revocation,
    authorizations,
    origins,
  });
  // Store packages inspected before this start are asked for again: the folder starts empty.
  const keptStoreDownloads = await openKeptStoreDownloads({ paths, logger });
  const storeDependencies = {
    paths,
    logger,
    plugins,
    sources,
    kept: keptStoreDownloads,
    primaryListings: await loadPrimaryListings(paths, logger),
    trustedHosts: options.trustedHosts,
    packageLimits,
  };
  const store = createStoreInstaller(storeDependencies);
  const updates = createUpdateService({
    paths,
    logger,
    plugins,
    origins,
    sources,
    settings: launcherSettings,
    revocation,
    store,
    // An update only a plugin's recorded source offered downloads from that source alone.
    storeFrom: (source) => createStoreInstaller({ ...storeDependencies, sources: pinnedSources(sources, source) }),
    launcherVersion: options.launcher.version,
    timer,
    isDevPlugin,
  });
  // The first update check discovers the sources and refreshes the revocation list; without it
  // (`checkForUpdates: false`) both still happen once, in the background.
  if (options.checkForUpdates === false) {
    revocation.refreshInBackground();
    sources.discover().catch(() => undefined);
  } else {
    updates.start();
  }

  const downloadWork = { paths, authorizations, instances, downloads, fetcher, logger, downloadLimitBytes: options.downloadLimitBytes, packageLimits };
  // Child processes never inherit the API token (decisions section 2).
  const openerEnv = childEnvironment(process.env, [options.token]);
  return {
    paths,
    logger,
    limits,
    fetcher,
    downloads,
    instances,
    authorizations,
    revocation,
    launcherSettings,
    sources,
    updates,
    plugins,
    devPlugins,
    packageUploads: { directory: paths.temporary, maxPackageBytes: resolvePackageLimits(packageLimits).maxPackageBytes },
    store,
    keptStoreDownloads,
    settings: createSettingsStore({ paths, pluginLock, logger, devPlugins }),
    cache: createCacheStore({ paths, pluginLock, logger, now: options.now ?? Date.now, devPlugins }),
    systemInfo: createSystemInfoReader(options.launcher),
    openUrl: options.openUrl ?? ((url) => openWithPlatformOpener(url, logger, { env: openerEnv })),
    telemetry: createPluginErrorForwarding({
      paths,
      logger,
      primaryStoreUrl: () => sources.primary()?.url,
      isTelemetryEnabled: options.isTelemetryEnabled ?? (() => launcherSettings.get().telemetryEnabled),
      launcherVersion: options.launcher.version,
      fetch: options.fetch,
      isDevPlugin,
    }),
    shell: createPluginShell({ paths, devPlugins, logger, secrets: [options.token], maximumOutputBytes: limits.shellOutputLimitBytes }),
    wasm: createWasmService(paths, logger, {
      isDisabled: (id) => plugins.isDisabledByUser(id),
      devPlugins,
      timeoutMs: limits.wasmTimeoutMs,
      memoryLimitBytes: limits.wasmMemoryLimitBytes,
      concurrencyPerPlugin: limits.wasmConcurrencyPerPlugin,
    }),
    fileTasks: createFileTasks(downloadWork),
    modpacks: createModpackInstaller({ ...downloadWork, modpackApis: options.modpackApis }),
  };
}
