/** Assembles the frozen `__PLUGIN_API__` object from the runtime's parts. */
import { BRIDGE_PROTOCOL_VERSION } from '../core/bridge/protocol.js';
import type { BridgeMethodName, GuestIdentity, PluginApi, PluginEventListener } from './plugin-api.js';
import type { GuestParts } from './guest-methods.js';
import type { HostAccess } from './host-session.js';
import { bridgeError } from './bridge-error.js';
import { callHost, callHostDirect } from './host-calls.js';
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
  const { host, identity, methods, hooks, menuItems, streams, events } = parts;
  let pluginId: string | null = null;
  void identity.then(
    (known) => {
      pluginId = known.pluginId;
    },
    () => undefined,
  );
  // The exposed `ready` is handled here too, so a refused frame is not also an unhandled rejection.
  const ready = identity.then((known) => known);
  ready.catch(() => undefined);

  const api = {
    runtimeVersion: parts.runtimeVersion,
    protocolVersion: BRIDGE_PROTOCOL_VERSION,
    get pluginId(): string | null {
      return pluginId;
    },
    ready,
    async call(name: BridgeMethodName, ...args: unknown[]): Promise<unknown> {
      if (!isName(name)) throw bridgeError('call() needs a method name', 'INVALID_ARGUMENT');
      return callHost(host, name, args);
    },
    registerMethod: (name: string, fn: (...args: unknown[]) => unknown) => methods.register(name, fn),
    async callPlugin(targetId: string, method: string, ...args: unknown[]): Promise<unknown> {
      if (!isName(targetId) || !isName(method)) throw bridgeError('callPlugin needs a plugin id and a method name', 'INVALID_ARGUMENT');
      return callHostDirect(host, 'callPlugin', [targetId, method, ...args]);
    },
    async callWasm(targetId: string, exportName?: string, ...numbers: number[]) {
      if (!isName(targetId)) throw bridgeError('callWasm needs a plugin id', 'INVALID_ARGUMENT');
      return callHostDirect(host, 'callWasm', [targetId, exportName ?? 'on_load', ...numbers]);
    },
    listWasmPlugins: () => callHostDirect(host, 'listWasmPlugins', []),
    registerHook: hooks.register,
    addMenuItem: menuItems.add,
    proxyFetchStream: streams.start,
    on: (name: string, listener: PluginEventListener) => events.on(name, listener),
    off: (name: string, listener: PluginEventListener) => events.off(name, listener),
  };
  return Object.freeze(api) as PluginApi;
}
