import Router from '@koa/router';
import type { Context } from 'koa';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { parseOpenableUrl } from '../services/system/openable-url.js';
import type { SystemInfoReader } from '../services/system/system-info.js';

/** What {@link createSystemRouter} needs. */
export interface SystemRouterServices {
  readonly systemInfo: SystemInfoReader;
  /** Opens an http(s) URL in the user's browser (the vendor's opener, or the platform's). */
  readonly openUrl: (url: string) => Promise<void>;
}

/**
 * `GET /api/systeminfo` and its alias `GET /api/system/info` (system information), and
 * `POST /api/system/open-url` `{url}`, which opens an http(s) URL in the user's browser and
 * answers `{opened: true}`.
 */
export function createSystemRouter({ systemInfo: readSystemInfo, openUrl }: SystemRouterServices): Router {
  const router = new Router({ strict: true, sensitive: true });

  const systemInfo = async (ctx: Context): Promise<void> => {
    // Memory changes between calls; nothing in between may replay an old answer.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readSystemInfo();
  };
  router.get('/systeminfo', systemInfo);
  router.get('/system/info', systemInfo);

  router.post('/system/open-url', jsonBody('16kb'), async (ctx) => {
    const url = parseOpenableUrl(requireJsonObject(ctx).url);
    await openUrl(url);
    ctx.body = { opened: true };
  });
  return router;
}
