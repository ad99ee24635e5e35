import { bridgeMethod, signature } from '../bridge-method.js';
import { idSegment, stringArgument } from './arguments.js';

/** `getSettings`, `setSettings`, `getCache`, `setCache`: the calling plugin's own data only. */
export const DATA_METHODS = [
  bridgeMethod({
    name: 'getSettings',
    permission: 'config:read',
    signature: signature<[], Record<string, unknown>>(),
    handler: ({ plugin, services }) => services.backend.json(`/api/plugins/settings/${idSegment(plugin.id)}`, { pluginId: plugin.id }),
  }),
  bridgeMethod({
    name: 'setSettings',
    permission: 'config:write',
    signature: signature<[key: string, value: unknown], unknown>(),
    handler: ({ plugin, services }, args) =>
      services.backend.json(`/api/plugins/settings/${idSegment(plugin.id)}`, {
        json: { key: stringArgument('setSettings', args, 0, 'key'), value: args[1] ?? null },
        pluginId: plugin.id,
      }),
  }),
  bridgeMethod({
    name: 'getCache',
    permission: 'cache:access',
    signature: signature<[key: string], unknown>(),
    handler: async ({ plugin, services }, args) => {
      const key = encodeURIComponent(stringArgument('getCache', args, 0, 'key'));
      const entry = await services.backend.json<{ value: unknown }>(`/api/plugins/cache/${idSegment(plugin.id)}?key=${key}`, { pluginId: plugin.id });
      return entry.value;
    },
  }),
  bridgeMethod({
    name: 'setCache',
    permission: 'cache:access',
    signature: signature<[key: string, value: unknown, ttlSeconds?: number], unknown>(),
    handler: async ({ plugin, services }, args) => {
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
  }),
];
