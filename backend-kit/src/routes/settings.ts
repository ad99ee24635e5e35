import Router from '@koa/router';
import { PluginHostError } from '@plughost/host-sdk/core';
import { requireJsonObject } from '../http/body.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import { PLUGIN_DATA_LIMITS } from '../services/plugin-data/data-limits.js';
import { pluginDataBody } from '../services/plugin-data/data-request-body.js';
import type { SettingsStore } from '../services/plugin-data/settings-store.js';

const WRITE_FIELDS = new Set(['key', 'value']);

/**
 * `GET /plugins/settings/:id` (the settings object, `{}` when none) and `POST /plugins/settings/:id`
 * with `{key, value}` (merges one key, answers the whole object). Token required (decisions
 * section 2).
 */
export function createSettingsRouter({ settings }: { readonly settings: SettingsStore }): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);

  router.get('/plugins/settings/:id', async (ctx) => {
    const values = await settings.read(pluginIdOf(ctx.params));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = values;
  });

  router.post('/plugins/settings/:id', pluginDataBody(PLUGIN_DATA_LIMITS), async (ctx) => {
    const id = pluginIdOf(ctx.params);
    const body = requireJsonObject(ctx);
    // Unknown fields are refused so a typo (`val`) is an error, not a silently stored `null`.
    const unknown = Object.keys(body).find((field) => !WRITE_FIELDS.has(field));
    if (unknown !== undefined) throw new PluginHostError('INVALID_ARGUMENT', `Unknown field "${unknown}"; send {key, value}`, { field: unknown });
    const values = await settings.merge(id, body.key, body.value);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = values;
  });

  return router;
}
