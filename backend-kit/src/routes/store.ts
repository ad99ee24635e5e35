import Router from '@koa/router';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { callerGoneSignal } from '../http/caller-gone.js';
import { parseStoreInstallRequest } from '../services/store/store-install-request.js';
import type { StoreInstaller } from '../services/store/store-installer.js';

/**
 * The store routes (mounted under `/api`): `POST /plugins/store-install` `{slug, version?,
 * enable?, allowDowngrade?, acceptPermissions?}` downloads a published version from the active
 * store source (the next usable one when it fails), checks its size and SHA-256, and installs it
 * (signature verified when present), answering 201 PluginInfo. Over an installed plugin, added
 * permissions must be in `acceptPermissions` (409 `CONSENT_REQUIRED` otherwise).
 */
export function createStoreRouter({ store }: { readonly store: StoreInstaller }): Router {
  const router = new Router({ strict: true, sensitive: true });

  // Three short fields: a small body limit keeps a flood cheap to refuse.
  router.post('/plugins/store-install', jsonBody('16kb'), async (ctx) => {
    const request = parseStoreInstallRequest(requireJsonObject(ctx));
    ctx.body = await store.install(request, { signal: callerGoneSignal(ctx) });
    ctx.status = 201;
  });
  return router;
}
