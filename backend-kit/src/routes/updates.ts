import Router from '@koa/router';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { callerGoneSignal } from '../http/caller-gone.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import { parseUpdateRequest } from '../services/updates/update-request.js';
import type { UpdateService } from '../services/updates/update-service.js';
import type { DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';
import { refuseDevPlugin } from '../services/dev-plugins/refuse-dev-plugin.js';

/**
 * Plugin updates (decisions section 8), mounted under `/api`:
 *
 * - `GET /plugins/updates`: `{checkedAt, updates: [{id, slug, currentVersion, latestVersion,
 *   changelog, publishedAt, rolloutPercent, addedPermissions}]}`, the offers of the last check
 *   for the versions installed now;
 * - `POST /plugins/updates/check`: checks now and answers the same;
 * - `POST /plugins/<id>/update` `{version, acceptPermissions?}`: the upgrade pipeline; PluginInfo
 *   of the new version, which runs after the next restart.
 *
 * `callBackend` never reaches these (they sit under `/plugins`, guarded by `plugin:list`). Dev
 * plugins are never checked, and updating one is 400 `INVALID_ARGUMENT`.
 */
export function createUpdatesRouter({
  updates,
  devPlugins = { has: () => false },
}: {
  readonly updates: UpdateService;
  /** Dev plugins (development mode). Default none. */
  readonly devPlugins?: Pick<DevPluginService, 'has'>;
}): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);

  router.get('/plugins/updates', async (ctx) => {
    ctx.body = await updates.snapshot();
  });

  router.post('/plugins/updates/check', async (ctx) => {
    ctx.body = await updates.check();
  });

  // Two short fields: a small body limit keeps a flood cheap to refuse.
  router.post('/plugins/:id/update', jsonBody('16kb'), async (ctx) => {
    const id = pluginIdOf(ctx.params);
    refuseDevPlugin(devPlugins, id, 'updated');
    const request = parseUpdateRequest(requireJsonObject(ctx));
    ctx.body = await updates.update(id, request, callerGoneSignal(ctx));
  });
  return router;
}
