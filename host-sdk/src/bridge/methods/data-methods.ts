import type { BridgeHandler } from '../lazy-handlers.js';
import { idSegment, stringArgument } from './arguments.js';

/** `getSettings`, `setSettings`, `getCache`, `setCache`: the calling plugin's own data only. */
export const handlers = {
  getSettings: ({ plugin, services }) => services.backend.json(`/api/plugins/settings/${idSegment(plugin.id)}`, { pluginId: plugin.id }),
  setSettings: ({ plugin, services }, args) =>
    services.backend.json(`/api/plugins/settings/${idSegment(plugin.id)}`, {
      json: { key: stringArgument('setSettings', args, 0, 'key'), value: args[1] ?? null },
      pluginId: plugin.id,
    }),
  getCache: async ({ plugin, services }, args) => {
    const key = encodeURIComponent(stringArgument('getCache', args, 0, 'key'));
    const entry = await services.backend.json<{ value: unknown }>(`/api/plugins/cache/${idSegment(plugin.id)}?key=${key}`, { pluginId: plugin.id });
    return entry.value;
  },
  setCache: async ({ plugin, services }, args) => {
    await services.backend.json(`/api/plugins/cache/${idSegment(plugin.id)}`, {
      json: {
        key: stringArgument('setCache', args, 0, 'key'),
        value: args[1] ?? null,
        ...(args[2] !== undefined && args[2] !== null ? { ttlSeconds: args[2] } : {}),
      },
      pluginId: plugin.id,
    });
    return null;
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
