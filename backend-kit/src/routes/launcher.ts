import Router from '@koa/router';
import type { BackendContext } from '../local-backend/context.js';
import type { PluginService } from '../services/plugin-service.js';

/**
 * `POST /api/launcher/restart` (decisions section 4): the backend re-reads its plugin state, so
 * enabling, disabling, overwrites and rollbacks show in each plugin's `status`, and answers 202;
 * the launcher page then reloads itself.
 */
export function createLauncherRouter(context: BackendContext, plugins: PluginService): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.post('/launcher/restart', async (ctx) => {
    await plugins.reload();
    context.logger.info('Plugin state re-read for a launcher restart');
    ctx.status = 202;
    ctx.body = { restarting: true };
  });
  return router;
}
