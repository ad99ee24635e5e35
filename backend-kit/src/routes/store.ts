import Router from '@koa/router';
import type { Context } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { callerGoneSignal } from '../http/caller-gone.js';
import { parseStoreInspectRequest, parseStoreInstallRequest } from '../services/store/store-install-request.js';
import type { StoreInstaller } from '../services/store/store-installer.js';

/** The request fields that carry the user's consent (decisions section 12). */
const CONSENT_FIELDS = ['acceptPermissions', 'allowUnsigned'] as const;

/**
 * Consent is the launcher's, never a plugin's: a request the host sent for a plugin (it carries
 * `X-Plugin-Id`, decisions section 2) may not say what the user accepted.
 */
function refuseConsentFromPlugin(ctx: Context, body: Readonly<Record<string, unknown>>): void {
  const pluginId = ctx.headers['x-plugin-id'];
  if (pluginId === undefined) return;
  const given = CONSENT_FIELDS.filter((field) => body[field] !== undefined);
  if (given.length === 0) return;
  throw new PluginHostError(
    'CONSENT_NOT_FROM_PLUGIN',
    `${given.join(' and ')} can only come from the launcher's install dialog, never from a plugin (${String(pluginId)}); nothing was installed`,
    { fields: given },
  );
}

/**
 * The store routes (mounted under `/api`), the two steps of a store install (decisions section 12):
 *
 * - `POST /plugins/store-inspect` `{slug, version?}` downloads the listed version from the
 *   answering source, checks its size, SHA-256 and signature and that it is the listed plugin and
 *   version, keeps it for 15 minutes and answers what the package itself says (the install
 *   dialog is built from it). Installs nothing.
 * - `POST /plugins/store-install` `{slug, version?, sha256?, acceptPermissions?, allowUnsigned?,
 *   enable?, allowDowngrade?}` installs exactly the bytes step one answered (`sha256`) when the
 *   user accepted every permission it asks for (beyond the installed version's) and, unsigned,
 *   allowed that; else 409 `CONSENT_REQUIRED` with `added`. Answers 201 PluginInfo.
 */
export function createStoreRouter({ store }: { readonly store: StoreInstaller }): Router {
  const router = new Router({ strict: true, sensitive: true });

  // A few short fields: a small body limit keeps a flood cheap to refuse.
  router.post('/plugins/store-inspect', jsonBody('16kb'), async (ctx) => {
    const request = parseStoreInspectRequest(requireJsonObject(ctx));
    ctx.body = await store.inspect(request, { signal: callerGoneSignal(ctx) });
  });
  router.post('/plugins/store-install', jsonBody('16kb'), async (ctx) => {
    const body = requireJsonObject(ctx);
    refuseConsentFromPlugin(ctx, body);
    const request = parseStoreInstallRequest(body);
    ctx.body = await store.install(request, { signal: callerGoneSignal(ctx) });
    ctx.status = 201;
  });
  return router;
}
