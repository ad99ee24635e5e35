/** Assembles the frozen `__PLUGIN_API__` object from the runtime's parts. */
import { BRIDGE_PROTOCOL_VERSION } from '../core/bridge/protocol.js';
import type { BridgeMethodName, GuestIdentity, PluginApi } from './plugin-api.js';
import type { GuestParts } from './guest-methods.js';
import type { HostAccess } from './host-session.js';
import { requireArgument } from './bridge-error.js';
import { isName } from './guards.js';

/** What the API is built from. */
export interface PluginApiParts extends GuestParts {
  readonly host: HostAccess;
  readonly identity: Promise<GuestIdentity>;
  readonly runtimeVersion: string;
}

/**
 * The plugin-facing object. It is frozen and holds no state of its own: everything lives in the
 * registries' closures, so a plugin can neither replace a member nor reach the internal maps.
 */
export function createPluginApi(parts: PluginApiParts): PluginApi {
  const { host, methods, hooks, menuItems, streams, events } = parts;
  let pluginId: string | null = null;
  const ready = parts.identity.then((identity) => {
    pluginId = identity.pluginId;
    return identity;
  });
  // The exposed `ready` is handled here too, so a refused frame is not also an unhandled rejection.
  ready.catch(() => undefined);

  const api = {
    runtimeVersion: parts.runtimeVersion,
    protocolVersion: BRIDGE_PROTOCOL_VERSION,
    get pluginId(): string | null {
      return pluginId;
    },
    ready,
    async call(name: BridgeMethodName, ...args: unknown[]): Promise<unknown> {
      requireArgument(isName(name), 'call() needs a method name');
      return host('call', name, args);
    },
    registerMethod: methods.register,
    async callPlugin(targetId: string, method: string, ...args: unknown[]): Promise<unknown> {
      requireArgument(isName(targetId) && isName(method), 'callPlugin needs a plugin id and a method name');
      return host('callDirect', 'callPlugin', [targetId, method, ...args]);
    },
    async callWasm(targetId: string, exportName?: string, ...numbers: number[]) {
      requireArgument(isName(targetId), 'callWasm needs a plugin id');
      return host('callDirect', 'callWasm', [targetId, exportName ?? 'on_load', ...numbers]) as Promise<{ readonly ok: true; readonly result: unknown }>;
    },
    listWasmPlugins: () => host('callDirect', 'listWasmPlugins', []),
    registerHook: hooks.register,
    addMenuItem: menuItems.add,
    proxyFetchStream: streams.start,
    on: events.on,
    off: events.off,
  };
  return Object.freeze(api) as PluginApi;
}
