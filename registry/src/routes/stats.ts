import Router from '@koa/router';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { notFound } from '../errors/registry-error.js';
import { CACHE_SECONDS, sendCachedJson } from '../http/cached-json.js';
import type { RegistryPluginStats } from '../protocol/registry-protocol.js';
import type { RegistryContext } from '../registry-context.js';

/** Days of `downloadsPerDay`, today included. */
export const STATS_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `GET /plugins/<slug>/stats`: `{pluginId, slug, downloadsCount, downloadsPerDay: [{date,
 * downloads}]}` for the last 30 UTC days (oldest first, today last, days without downloads 0;
 * cached 300 s). The specification writes this route with the plugin id, so a manifest id is
 * accepted as well as a slug (a slug never has a dot, an id always has one). Published plugins
 * only.
 */
export function createStatsRouter(context: RegistryContext, catalog: CatalogRepository): Router {
  const router = new Router({ strict: true, sensitive: true });

  router.get('/plugins/:slug/stats', async (ctx) => {
    const reference = ctx.params.slug ?? '';
    const plugin = reference.includes('.') ? await catalog.getPublishedById(reference) : await catalog.getPublishedBySlug(reference);
    if (plugin === null) throw notFound(`No published plugin ${reference}`);
    const today = Date.parse(context.now().toISOString().slice(0, 10));
    const days = Array.from({ length: STATS_DAYS }, (_, index) => new Date(today - (STATS_DAYS - 1 - index) * DAY_MS).toISOString().slice(0, 10));
    const stats = await catalog.stats(plugin.slug, days[0] ?? '');
    if (stats === null) throw notFound(`No published plugin ${reference}`);
    const counts = new Map(stats.daily.map((entry) => [entry.day, entry.downloads]));
    const body: RegistryPluginStats = {
      pluginId: stats.pluginId,
      slug: stats.slug,
      downloadsCount: stats.downloadsCount,
      downloadsPerDay: days.map((date) => ({ date, downloads: counts.get(date) ?? 0 })),
    };
    sendCachedJson(ctx, body, CACHE_SECONDS.stats);
  });

  return router;
}
