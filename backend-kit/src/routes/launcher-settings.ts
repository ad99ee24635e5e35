import Router from '@koa/router';
import type { Middleware } from 'koa';
import { PluginHostError, type RegistrySources } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import type { LauncherSettingsStore } from '../services/launcher-settings/launcher-settings-store.js';

/**
 * Refuses requests the host made for a plugin (`X-Plugin-Id`, set on every bridge call) exactly
 * as an unknown route: the launcher settings serve the launcher page only. `callBackend` already
 * never forwards `/launcher/*`; this holds even for a vendor that allowlists `/registries`.
 */
const launcherPageOnly: Middleware = async function launcherPageOnly(ctx, next) {
  if (ctx.headers['x-plugin-id'] !== undefined) throw new PluginHostError('NOT_FOUND', `No route ${ctx.method} ${ctx.path}`);
  await next();
};

/**
 * The launcher's own settings and store sources (decisions section 8), mounted under `/api`:
 *
 * - `GET /launcher/settings`, `PATCH /launcher/settings` (`{telemetryEnabled?, registryUrl?,
 *   updateCheckHours?}`): the whole settings after the change;
 * - `GET /registries`: each source's status `{url, primary, priority, enabled, usable, active,
 *   apiVersion, capabilities, pluginCount, lastError}`, best first;
 * - `POST /registries/retry`: forgets timeouts and unavailability and discovers every source again.
 */
export function createLauncherSettingsRouter({ settings, sources }: { readonly settings: LauncherSettingsStore; readonly sources: RegistrySources }): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.use(['/launcher/settings', '/registries', '/registries/retry'], launcherPageOnly);

  router.get('/launcher/settings', (ctx) => {
    ctx.body = settings.get();
  });

  router.patch('/launcher/settings', jsonBody('64kb'), async (ctx) => {
    ctx.body = await settings.update(requireJsonObject(ctx));
  });

  // Right after start the first discovery may still run (at most 5 s): its result is what the page wants.
  router.get('/registries', async (ctx) => {
    ctx.body = await sources.discovered();
  });

  router.post('/registries/retry', async (ctx) => {
    ctx.body = await sources.retry();
  });
  return router;
}
