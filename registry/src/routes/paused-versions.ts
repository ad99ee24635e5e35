import Router from '@koa/router';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { PausedVersion } from '../catalog/catalog-types.js';
import { requireAdminKey } from '../publishing/admin-key.js';
import type { RegistryContext } from '../registry-context.js';
import { PAUSE_WINDOW_MS } from '../telemetry/report-retention.js';
import { DEFAULT_PAUSE_THRESHOLD } from '../updates/rollout-pause.js';

/** The answer of `GET /admin/paused`. */
export interface PausedVersionList {
  /** `PLUGIN_ERROR_PAUSE_THRESHOLD`: a version with more reporters than this is paused. */
  readonly threshold: number;
  /** The window reporters are counted in. */
  readonly windowHours: number;
  readonly items: readonly PausedVersion[];
}

/**
 * `GET /admin/paused` (admin key, `no-store`): the versions the automatic rollout pause withholds
 * now, `{threshold, windowHours, items: [{pluginId, slug, version, reporters, reports,
 * lastReportAt}]}`, most reporters first. `reporters` is the distinct reporter networks the pause
 * counts; `reports` how many reports they sent. A listed version that is not its plugin's latest
 * release is not offered anyway; it would be withheld once it were.
 */
export function createPausedVersionsRouter(context: RegistryContext, catalog: CatalogRepository): Router {
  const router = new Router({ strict: true, sensitive: true });
  const admin = requireAdminKey(context.options.adminKey);
  const threshold = context.options.pauseThreshold ?? DEFAULT_PAUSE_THRESHOLD;

  router.get('/admin/paused', admin, async (ctx) => {
    const since = new Date(context.now().getTime() - PAUSE_WINDOW_MS).toISOString();
    const body: PausedVersionList = { threshold, windowHours: PAUSE_WINDOW_MS / 3_600_000, items: await catalog.pausedVersions(since, threshold) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
