import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/cache.ts`: per-plugin cache with optional expiry. */
export const cacheRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/plugins/cache/{id}',
    operationId: 'getPluginCacheEntry',
    tag: 'cache',
    summary: 'Read one cache entry',
    parameters: [{ name: 'key', in: 'query', required: true, description: 'The cache key.', schema: { type: 'string', minLength: 1 } }],
    responses: { 200: jsonResponse('The entry; `value` is `null` when missing or expired.', 'CacheEntry') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/plugins/cache/{id}',
    operationId: 'setPluginCacheEntry',
    tag: 'cache',
    summary: 'Store one cache entry',
    description: 'Stored as `{v, e}` in `cache.json`, `e` being the expiry in epoch milliseconds or `null`.',
    body: { json: schemaRef('CacheWrite') },
    responses: { 200: jsonResponse('The stored entry.', 'CacheEntry') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
];
