/** Plugin settings and cache (`/api/plugins/settings/<id>`, `/api/plugins/cache/<id>`), in memory. */
import { refuseUnknownFields } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { readJsonObject, sendJson } from './http-io.js';
import { type StubContext, requirePlugin } from './stub-context.js';
import { type StubRoute, route } from './stub-router.js';

/** The settings and cache routes, answering as the backend's (`routes/settings.ts`, `routes/cache.ts`). */
export function dataRoutes(context: StubContext): StubRoute[] {
  const { data } = context;
  return [
    route('GET', '/api/plugins/settings/:id', async ({ params, response }) => {
      const plugin = await requirePlugin(context, params.id ?? '');
      sendJson(response, 200, data.settings(plugin.id));
    }),
    route('POST', '/api/plugins/settings/:id', async ({ incoming, params, response }) => {
      const body = await readJsonObject(incoming);
      refuseUnknownFields(body, ['key', 'value']);
      const plugin = await requirePlugin(context, params.id ?? '');
      sendJson(response, 200, data.mergeSetting(plugin.id, body.key, body.value));
    }),
    route('GET', '/api/plugins/cache/:id', async ({ params, query, response }) => {
      const keys = query.getAll('key');
      if (keys.length !== 1) throw new PluginHostError('INVALID_ARGUMENT', 'Give exactly one cache key as the query parameter "key"', { field: 'key' });
      const plugin = await requirePlugin(context, params.id ?? '');
      sendJson(response, 200, data.cacheGet(plugin.id, keys[0]));
    }),
    route('POST', '/api/plugins/cache/:id', async ({ incoming, params, response }) => {
      const body = await readJsonObject(incoming);
      refuseUnknownFields(body, ['key', 'value', 'ttlSeconds']);
      const plugin = await requirePlugin(context, params.id ?? '');
      sendJson(response, 200, data.cacheSet(plugin.id, body.key, body.value, body.ttlSeconds));
    }),
  ];
}
