import Router from '@koa/router';
import type { BackendLogger } from '../http/logger.js';
import type { PluginService } from '../services/plugin-service.js';

/**
 * `POST /api/launcher/restart` (decisions section 4): the backend re-reads its plugin state, so
 * enabling, disabling, overwrites and rollbacks show in each plugin's `status`, and answers 202;
 * the launcher page then reloads itself.
 */
export function createLauncherRouter({ plugins, logger }: { readonly plugins: Pick<PluginService, 'reload'>; readonly logger: BackendLogger }): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.post('/launcher/restart', async (ctx) => {
    await plugins.reload();
    logger.info('Plugin state re-read for a launcher restart');
    ctx.status = 202;
    ctx.body = { restarting: true };
  });
  return router;
}
