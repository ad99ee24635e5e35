import { isValidPluginId } from '../../core/manifest/plugin-id.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { badArgument, stringArgument } from './arguments.js';

/** `callWasm` and `listWasmPlugins`: the backend's WASM runtime. */
export const handlers = {
  callWasm: ({ plugin, services }, args) => {
    const target = stringArgument('callWasm', args, 0, 'pluginId');
    if (!isValidPluginId(target)) throw badArgument('callWasm', '"pluginId" must be a plugin id');
    const exportName = args[1] ?? 'on_load';
    if (typeof exportName !== 'string') throw badArgument('callWasm', '"exportName" must be a string');
    const numbers = args.slice(2);
    return services.backend.json(`/api/plugins/wasm/${encodeURIComponent(target)}/invoke`, {
      json: { exportName, ...(numbers.length > 0 ? { args: numbers } : {}) },
      pluginId: plugin.id,
    });
  },
  listWasmPlugins: ({ plugin, services }) => services.backend.json('/api/plugins/wasm', { pluginId: plugin.id }),
} satisfies Readonly<Record<string, BridgeHandler>>;
