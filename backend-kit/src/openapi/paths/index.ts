import type { RouteDescription } from '../route-description.js';
import { cacheRoutes } from './cache.js';
import { healthRoutes } from './health.js';
import { launcherRoutes } from './launcher.js';
import { openApiRoutes } from './openapi.js';
import { pluginFileRoutes } from './plugin-files.js';
import { pluginRoutes } from './plugins.js';
import { settingsRoutes } from './settings.js';
import { systemRoutes } from './system.js';
import { telemetryRoutes } from './telemetry.js';

/** Every route of the local backend, one module per router module. */
export const ALL_ROUTES: readonly RouteDescription[] = [
  ...healthRoutes,
  ...pluginRoutes,
  ...pluginFileRoutes,
  ...settingsRoutes,
  ...cacheRoutes,
  ...systemRoutes,
  ...telemetryRoutes,
  ...launcherRoutes,
  ...openApiRoutes,
];
