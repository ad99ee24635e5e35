import Router from '@koa/router';
import type { BackendContext } from '../local-backend/context.js';
import type { PluginService } from '../services/plugin-service.js';

/** PLACEHOLDER: being written. */
export function createLauncherRouter(_context: BackendContext, _plugins: PluginService): Router {
  return new Router({ strict: true, sensitive: true });
}
