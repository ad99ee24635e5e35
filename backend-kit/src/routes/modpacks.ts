import Router from '@koa/router';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { callerOf } from '../http/caller.js';
import type { DataPaths } from '../config/data-paths.js';
import type { DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';
import type { ModpackInstaller } from '../services/modpacks/install-modpack.js';
import { parseModpackInstallRequest } from '../services/modpacks/modpack-request.js';

/**
 * `POST /modpack/install-direct` (`modpack.install`): validates, creates the instance and answers
 * `{instanceId}` at once; the install runs in the download manager, so its progress arrives on
 * `/plugins/download/events` like any download.
 */
/** What {@link createModpacksRouter} needs. */
export interface ModpacksRouterServices {
  /** With `devPlugins`, to check the caller (`X-Plugin-Id`) is an installed plugin or a dev plugin (development mode). */
  readonly paths: DataPaths;
  readonly devPlugins?: Pick<DevPluginService, 'has' | 'manifest'>;
  readonly modpacks: ModpackInstaller;
}

export function createModpacksRouter({ paths, devPlugins, modpacks }: ModpacksRouterServices): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.post('/modpack/install-direct', jsonBody('64kb'), async (ctx) => {
    const caller = await callerOf(ctx, { paths, devPlugins });
    const request = parseModpackInstallRequest(requireJsonObject(ctx));
    ctx.status = 202;
    ctx.body = await modpacks.start(caller, request);
  });
  return router;
}
