import type { RouteDescription } from '../route-description.js';
import { cacheRoutes } from './cache.js';
import { devPluginRoutes } from './dev-plugins.js';
import { downloadRoutes } from './downloads.js';
import { healthRoutes } from './health.js';
import { instanceRoutes } from './instances.js';
import { launcherRoutes } from './launcher.js';
import { launcherSettingsRoutes } from './launcher-settings.js';
import { updateRoutes } from './updates.js';
import { modpackRoutes } from './modpacks.js';
import { openApiRoutes } from './openapi.js';
import { pluginFileRoutes } from './plugin-files.js';
import { pluginFilesystemRoutes } from './plugin-filesystem.js';
import { pluginRoutes } from './plugins.js';
import { proxyRoutes } from './proxy.js';
import { shellRoutes } from './shell.js';
import { storeRoutes } from './store.js';
import { settingsRoutes } from './settings.js';
import { systemRoutes } from './system.js';
import { telemetryRoutes } from './telemetry.js';
import { wasmRoutes } from './wasm.js';

/** Every route of the local backend, one module per router module. */
export const ALL_ROUTES: readonly RouteDescription[] = [
  ...healthRoutes,
  ...updateRoutes,
  ...devPluginRoutes,
  ...pluginRoutes,
  ...storeRoutes,
  ...pluginFileRoutes,
  ...settingsRoutes,
  ...cacheRoutes,
  ...systemRoutes,
  ...telemetryRoutes,
  ...launcherRoutes,
  ...launcherSettingsRoutes,
  ...proxyRoutes,
  ...shellRoutes,
  ...pluginFilesystemRoutes,
  ...wasmRoutes,
  ...downloadRoutes,
  ...modpackRoutes,
  ...instanceRoutes,
  ...openApiRoutes,
];
