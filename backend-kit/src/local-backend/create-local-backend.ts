import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { PluginHostError, decodePublicKey, type RegistrySources } from '@plughost/host-sdk/core';
import { consoleLogger } from '../http/logger.js';
import { createOpenApiRouter } from '../openapi/openapi-router.js';
import { createCacheRouter } from '../routes/cache.js';
import { createDevPluginsRouter } from '../routes/dev-plugins.js';
import { createHealthRouter } from '../routes/health.js';
import { createLauncherRouter } from '../routes/launcher.js';
import { createPluginFilesRouter } from '../routes/plugin-files.js';
import { createPluginFilesystemRouter } from '../routes/plugin-filesystem.js';
import { createPluginsRouter } from '../routes/plugins.js';
import { createProxyRouter } from '../routes/proxy.js';
import { createShellRouter } from '../routes/shell.js';
import { createStoreRouter } from '../routes/store.js';
import { createWasmRouter } from '../routes/wasm.js';
import { createDownloadsRouter } from '../routes/downloads.js';
import { createInstancesRouter } from '../routes/instances.js';
import { createModpacksRouter } from '../routes/modpacks.js';
import { createSettingsRouter } from '../routes/settings.js';
import { createSystemRouter } from '../routes/system.js';
import { createTelemetryRouter } from '../routes/telemetry.js';
import { createLauncherSettingsRouter } from '../routes/launcher-settings.js';
import { createUpdatesRouter } from '../routes/updates.js';
import type { LauncherSettingsStore } from '../services/launcher-settings/launcher-settings-store.js';
import type { UpdateService } from '../services/updates/update-service.js';
import type { PluginService } from '../services/plugin-service.js';
import type { RevocationService } from '../services/revocation/revocation-service.js';
import type { DownloadManager } from '../services/downloads/download-manager.js';
import type { InstanceStore } from '../services/instances/instance-store.js';
import { createLocalServices, type LocalBackendServices } from './local-services.js';
import type { LocalBackendOptions } from './options.js';
import { callerOf } from '../http/caller.js';
import type { LauncherRoutes } from './launcher-routes.js';
import { createApiMiddleware } from './api-middleware.js';

/** A mounted local backend. */
export interface LocalBackend {
  /** Koa middleware serving `/api/*` (and `/openapi/v1.json` in development); other paths pass through. */
  readonly middleware: Middleware;
  /** The bearer token protected routes require. Hand it to the launcher UI, never to plugin frames. */
  readonly token: string;
  /** The plugin lifecycle service (install, state, rollback, uninstall), for launcher code on the server. */
  readonly plugins: PluginService;
  /**
   * The primary store's revocation list of developer keys: fetched at start (without delaying it),
   * kept in the data directory, applied to every install. Call `refresh()` at each update check.
   */
  readonly revocation: RevocationService;
  /** Every route this backend answers (`{method, path}` with `:param` placeholders), for docs and checks. */
  readonly routes: readonly BackendRoute[];
  /** The download manager (plugin tasks, modpack installs), for launcher code on the server. */
  readonly downloads: DownloadManager;
  /** The launcher's instances. */
  readonly instances: InstanceStore;
  /** `launcher-settings.json` (decisions section 8); the demo reads the enabled sources for its CSP. */
  readonly settings: LauncherSettingsStore;
  /** The store sources with discovery and fallback (`GET /api/registries` reports them). */
  readonly sources: RegistrySources;
  /** Update checks and the upgrade pipeline, for launcher code on the server. */
  readonly updates: UpdateService;
  /**
   * Stops running downloads (they become `paused`, their partial files kept) and refuses new
   * ones, and ends a revocation-list refresh in flight; resolves once nothing more will be
   * written into the data directory (it may be removed next). Call before closing the HTTP server.
   */
  close(): Promise<void>;
}

/** One route of the local backend. */
export interface BackendRoute {
  method: string;
  path: string;
}

function listRoutes(routers: readonly Router[]): BackendRoute[] {
  const routes: BackendRoute[] = [];
  for (const router of routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods) if (method !== 'HEAD' || !layer.methods.includes('GET')) routes.push({ method, path: String(layer.path) });
    }
  }
  return routes;
}

/**
 * The routers of `/api`, each handed only the services it uses (so a router's signature says what
 * it can reach, and a test can build one on a temporary folder).
 */
function apiRouters(services: LocalBackendServices): Router[] {
  const { paths, logger, plugins, devPlugins } = services;
  return [
    createHealthRouter(),
    // Before the plugins router: `/plugins/updates` is a route of its own, not a plugin id.
    createUpdatesRouter({ updates: services.updates, devPlugins }),
    createDevPluginsRouter({ devPlugins }),
    createPluginsRouter({ plugins, packageUploads: services.packageUploads, devPlugins }),
    createStoreRouter({ store: services.store }),
    createPluginFilesRouter({ paths, devPlugins }),
    createSettingsRouter({ settings: services.settings }),
    createCacheRouter({ cache: services.cache }),
    createSystemRouter({ systemInfo: services.systemInfo, openUrl: services.openUrl }),
    createTelemetryRouter({ telemetry: services.telemetry }),
    createLauncherRouter({ plugins, logger }),
    createLauncherSettingsRouter({ settings: services.launcherSettings, sources: services.sources }),
    createProxyRouter({ fetcher: services.fetcher }),
    createShellRouter({ shell: services.shell }),
    createPluginFilesystemRouter({ paths, devPlugins, logger, authorizations: services.authorizations }),
    createWasmRouter({ wasm: services.wasm }),
    createDownloadsRouter({ paths, devPlugins, logger, downloads: services.downloads, fileTasks: services.fileTasks }),
    createModpacksRouter({ paths, devPlugins, modpacks: services.modpacks }),
    createInstancesRouter({ instances: services.instances }),
  ];
}

/** The vendor's launcher routes, lent the backend's caller rule, download path and stores. */
function launcherRouters(services: LocalBackendServices, routes: LauncherRoutes | undefined): readonly Router[] {
  if (!routes) return [];
  return routes.create({
    callerOf: (ctx) => callerOf(ctx, services),
    addDownloadTask: (caller, request) => services.fileTasks.start(caller, request),
    instances: services.instances,
    settings: services.launcherSettings,
    logger: services.logger,
  });
}

function isBackendPath(path: string, development: boolean): boolean {
  return path === '/api' || path.startsWith('/api/') || (development && path === '/openapi/v1.json');
}

/**
 * Creates the local backend of the specification: every `/api` route, with the security of
 * decisions section 2 (bearer token, Host-header check, CORS, places no file API reaches,
 * per-plugin resource limits: see the `wasm*`, `download*` and `shellOutputLimitBytes` options)
 * and the error bodies of section 3. Works in any Koa 3 app; mount `middleware` before your own
 * routes.
 *
 * @example
 * ```ts
 * const backend = await createLocalBackend({
 *   dataDirectory: resolveDataDirectory({ appName: 'Acme Launcher' }),
 *   rootPublicKey: process.env.PLUGIN_ROOT_PUBLIC_KEY!,
 *   launcher: { name: 'Acme Launcher', version: '2.4.0' },
 * });
 * app.use(backend.middleware);
 * ```
 */
export async function createLocalBackend(options: LocalBackendOptions): Promise<LocalBackend> {
  // Refuse a bad root key at start, not on the first upload.
  decodePublicKey(options.rootPublicKey, 'root public key');
  if (options.token !== undefined && options.token.length < 16) {
    throw new PluginHostError('INVALID_ARGUMENT', 'The API token must be at least 16 characters');
  }
  if (options.downloadLimitBytes !== undefined && !(Number.isInteger(options.downloadLimitBytes) && options.downloadLimitBytes > 0)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'downloadLimitBytes must be a positive whole number of bytes');
  }
  const logger = options.logger ?? consoleLogger;
  const token = options.token ?? randomBytes(32).toString('base64url');
  const services = await createLocalServices(options, logger);
  const api = new Router({ prefix: '/api', strict: true, sensitive: true });
  // The vendor's routes come after the backend's own, so they can never shadow one. Mounting a
  // router copies its routes into `api`; the dispatch compiles `api`'s routes into a table once
  // (createApiMiddleware) and answers 405, 501 and OPTIONS for all of them as `allowedMethods` would.
  for (const router of [...apiRouters(services), ...launcherRouters(services, options.launcherRoutes)]) {
    api.use(router.routes());
  }
  const development = options.development === true;
  const openApi = development ? createOpenApiRouter(options.launcherRoutes?.descriptions ?? []) : undefined;

  const middleware = createApiMiddleware({
    owns: (path) => isBackendPath(path, development),
    routers: [api, ...(openApi ? [openApi] : [])],
    token,
    allowedOrigins: options.allowedOrigins ?? [],
    hosts: { ...(options.host ? { configuredHost: options.host } : {}), allowedHosts: options.allowedHosts ?? [] },
    logger,
  });

  return {
    middleware,
    token,
    plugins: services.plugins,
    revocation: services.revocation,
    routes: listRoutes([api, ...(openApi ? [openApi] : [])]),
    downloads: services.downloads,
    instances: services.instances,
    settings: services.launcherSettings,
    sources: services.sources,
    updates: services.updates,
    close: async () => {
      services.devPlugins.close();
      services.updates.close();
      services.keptStoreDownloads.close();
      await Promise.all([services.revocation.close(), services.downloads.close()]);
    },
  };
}
