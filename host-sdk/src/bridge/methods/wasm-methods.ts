import { isValidPluginId } from '../../core/index.js';
import { bridgeMethod } from '../bridge-method.js';
import { badArgument, stringArgument } from './arguments.js';

/** `callWasm` and `listWasmPlugins`: the backend's WASM runtime. */
export const WASM_METHODS = [
  bridgeMethod({
    name: 'callWasm',
    permission: 'wasm:execute',
    direct: true,
    handler: ({ plugin, services }, args) => {
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
  }),
  bridgeMethod({
    name: 'listWasmPlugins',
    permission: 'wasm:execute',
    direct: true,
    handler: ({ plugin, services }) => services.backend.json('/api/plugins/wasm', { pluginId: plugin.id }),
  }),
];
