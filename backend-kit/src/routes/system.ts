import Router from '@koa/router';
import type { Context } from 'koa';
import { jsonBody, requireJsonObject } from '../http/body.js';
import type { BackendContext } from '../local-backend/context.js';
import { parseOpenableUrl } from '../services/system/openable-url.js';
import { childEnvironment } from '../services/system/child-environment.js';
import { createSystemInfoReader } from '../services/system/system-info.js';
import { openWithPlatformOpener } from '../services/system/url-opener.js';

/**
 * `GET /api/systeminfo` and its alias `GET /api/system/info` (system information), and
 * `POST /api/system/open-url` `{url}`, which opens an http(s) URL in the user's browser and
 * answers `{opened: true}`.
 */
export function createSystemRouter(context: BackendContext): Router {
  const router = new Router({ strict: true, sensitive: true });
  const readSystemInfo = createSystemInfoReader(context.options.launcher);
  const env = childEnvironment(process.env, [context.options.token]);
  const openUrl = context.options.openUrl ?? ((url: string) => openWithPlatformOpener(url, context.logger, { env }));

  const systemInfo = async (ctx: Context): Promise<void> => {
    // Memory changes between calls; nothing in between may replay an old answer.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readSystemInfo();
  };
  router.get('/systeminfo', systemInfo);
  router.get('/system/info', systemInfo);

  router.post('/system/open-url', jsonBody('16kb'), async (ctx) => {
    const url = parseOpenableUrl(requireJsonObject(ctx)['url']);
    await openUrl(url);
    ctx.body = { opened: true };
  });
  return router;
}
