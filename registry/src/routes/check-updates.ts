import Router from '@koa/router';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { VersionRef } from '../catalog/catalog-types.js';
import { jsonBody } from '@plughost/backend-kit';
import { clientAddressOf } from '../http/client-address.js';
import { publicApiRoot } from '../http/public-url.js';
import { jsonObjectBody } from '../http/request-input.js';
import type { RegistryContext } from '../registry-context.js';
import { NetworkHasher } from '../telemetry/network-hash.js';
import { parseCheckUpdatesBody } from '../updates/check-updates-body.js';
import { findUpdates } from '../updates/find-updates.js';
import { InstallRecorder } from '../updates/install-record.js';
import { LatestVersionCache } from '../updates/latest-version-cache.js';
import { DEFAULT_PAUSE_THRESHOLD } from '../updates/rollout-pause.js';
import { checkUpdatesResponseText, UpdateItemTexts } from '../updates/update-item-text.js';

/**
 * `POST /plugins/check-updates` `{launcherVersion, installed: [{slug, version}]}` → `{updates:
 * [{slug, currentVersion, latestVersion, rolloutPercent, changelog, publishedAt, download}]}`
 * (`no-store`). See `findUpdates` for which version is offered and the automatic rollout pause
 * (threshold `pauseThreshold`, default 10). The rollout bucket is the launcher's to compute
 * (decisions section 6): every item carries `rolloutPercent`, also when it is 100.
 *
 * It also records, for the pause (decisions section 12), that the client's network runs each
 * installed version that is its plugin's latest: under the network's hash of the UTC day (the
 * value its error reports carry that day), never the address. Only such a network's reports of
 * that version count that day, and the networks of the last 7 days make the installed base.
 */
export function createCheckUpdatesRouter(context: RegistryContext, catalog: CatalogRepository): Router {
  const router = new Router({ strict: true, sensitive: true });
  const pauseThreshold = context.options.pauseThreshold ?? DEFAULT_PAUSE_THRESHOLD;
  const mirrors = context.options.mirrors ?? [];
  // Per instance, validated against the catalog revision on every request (see LatestVersionCache).
  const latestVersions = new LatestVersionCache(catalog);
  const itemTexts = new UpdateItemTexts(mirrors);
  const networks = new NetworkHasher(catalog);
  const installs = new InstallRecorder(catalog);

  router.post('/plugins/check-updates', jsonBody('256kb'), async (ctx) => {
    const request = parseCheckUpdatesBody(jsonObjectBody(ctx));
    const now = context.now();
    const recordRunning = async ({ running }: { readonly running: readonly VersionRef[] }): Promise<void> => {
      if (running.length > 0) await installs.record(await networks.hashOf(clientAddressOf(ctx), now), running);
    };
    const offered = await findUpdates(catalog, request, { pauseThreshold, now, latestVersions, recordRunning });
    // Pre-serialized items (UpdateItemTexts): the same text as `ctx.body = {updates}` would send.
    const baseUrl = publicApiRoot(ctx, context.options);
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = checkUpdatesResponseText(offered.map((offer) => itemTexts.text(offer, baseUrl)));
  });

  return router;
}
