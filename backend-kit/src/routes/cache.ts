import Router from '@koa/router';
import { PluginHostError } from '@plughost/host-sdk/core';
import { requireJsonObject } from '../http/body.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import type { CacheStore } from '../services/plugin-data/cache-store.js';
import { PLUGIN_DATA_LIMITS } from '../services/plugin-data/data-limits.js';
import { pluginDataBody } from '../services/plugin-data/data-request-body.js';

const WRITE_FIELDS = new Set(['key', 'value', 'ttlSeconds']);

/**
 * `GET /plugins/cache/:id?key=K` (`{key, value}`, value `null` when missing or expired) and
 * `POST /plugins/cache/:id` with `{key, value, ttlSeconds?}` (answers `{key, value}`). Token
 * required (decisions section 2).
 */
export function createCacheRouter({ cache }: { readonly cache: CacheStore }): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);

  router.get('/plugins/cache/:id', async (ctx) => {
    const key: unknown = ctx.query.key;
    if (typeof key !== 'string') {
      throw new PluginHostError('INVALID_ARGUMENT', 'Give exactly one cache key as the query parameter "key"', { field: 'key' });
    }
    const result = await cache.get(pluginIdOf(ctx.params), key);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = result;
  });

  router.post('/plugins/cache/:id', pluginDataBody(PLUGIN_DATA_LIMITS), async (ctx) => {
    const id = pluginIdOf(ctx.params);
    const body = requireJsonObject(ctx);
    const unknown = Object.keys(body).find((field) => !WRITE_FIELDS.has(field));
    if (unknown !== undefined) {
      throw new PluginHostError('INVALID_ARGUMENT', `Unknown field "${unknown}"; send {key, value, ttlSeconds?}`, { field: unknown });
    }
    const result = await cache.set(id, body.key, body.value, body.ttlSeconds);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = result;
  });

  return router;
}
