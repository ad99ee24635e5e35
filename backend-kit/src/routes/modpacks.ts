import Router from '@koa/router';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { callerOf } from '../http/caller.js';
import type { BackendContext } from '../local-backend/context.js';
import { startModpackInstall } from '../services/modpacks/install-modpack.js';
import { parseModpackInstallRequest } from '../services/modpacks/modpack-request.js';

/**
 * `POST /modpack/install-direct` (`modpack.install`): validates, creates the instance and answers
 * `{instanceId}` at once; the install runs in the download manager, so its progress arrives on
 * `/plugins/download/events` like any download.
 */
export function createModpacksRouter(context: BackendContext): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.post('/modpack/install-direct', jsonBody('64kb'), async (ctx) => {
    const caller = await callerOf(ctx, context);
    const request = parseModpackInstallRequest(requireJsonObject(ctx));
    ctx.status = 202;
    ctx.body = await startModpackInstall(context, caller, request);
  });
  return router;
}
