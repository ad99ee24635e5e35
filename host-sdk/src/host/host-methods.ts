import { BRIDGE_PROTOCOL_VERSION, toPlainData, toWireError, type HostMethods } from '../core/index.js';
import type { BridgeMethodIndex } from '../bridge/dispatch.js';
import { dispatchBridgeCall } from '../bridge/dispatch.js';
import type { CallingPlugin } from '../bridge/bridge-method.js';
import { abortStream } from '../bridge/methods/network-methods.js';
import type { HostServices } from './host-services.js';

/** What the host does with the reports a plugin's frame sends. */
export interface GuestReports {
  runtimeError(message: string): void;
  loadFailure(resource: string): void;
  /**
   * The guest said hello: the connection is usable. The answer to `hello` waits for the promise
   * this returns, which is how a plugin is held until the plugins it depends on have activated.
   * A frame that reloads says hello again.
   */
  connected(): Promise<void> | void;
}

/**
 * The methods one plugin's connection exposes to its frame. Every one of them knows the plugin
 * from the connection it was built for: nothing the frame sends names the caller. The object has
 * no prototype, so no inherited name (`constructor`, `toString`, `__proto__`) is callable.
 */
export function hostMethodsFor(
  plugin: CallingPlugin,
  apiBase: string | null,
  services: HostServices,
  index: BridgeMethodIndex,
  reports: GuestReports,
): HostMethods {
  const context = { plugin, services };
  const methods: HostMethods = Object.assign(Object.create(null) as HostMethods, {
    async hello(guest: unknown) {
      const version = (guest as { protocolVersion?: unknown } | null)?.protocolVersion;
      if (version !== BRIDGE_PROTOCOL_VERSION) {
        return { ok: false as const, error: { message: `The guest runtime speaks bridge protocol ${String(version)}; this host speaks ${BRIDGE_PROTOCOL_VERSION}` } };
      }
      await reports.connected();
      return { ok: true as const, value: { pluginId: plugin.id, apiBase } };
    },
    call: (name: string, args: readonly unknown[]) => dispatchBridgeCall(index, context, name, args, 'call'),
    callDirect: (name: string, args: readonly unknown[]) => dispatchBridgeCall(index, context, name, args, 'direct'),
    async hookNext(invocationId: string, args: readonly unknown[], prevented?: boolean) {
      try {
        const value = await services.hooks.next(plugin.id, String(invocationId), toPlainData(Array.isArray(args) ? args : []) as unknown[], prevented === true);
        return { ok: true as const, value: toPlainData(value) as { result: unknown; prevented: boolean } };
      } catch (error) {
        return { ok: false as const, error: toWireError(error) };
      }
    },
    async abortStream(requestId: string) {
      abortStream(services, plugin.id, requestId);
    },
    async reportError(report: { message?: unknown }) {
      reports.runtimeError(typeof report?.message === 'string' ? report.message.slice(0, 1000) : 'Unknown error');
    },
    async reportLoadFailure(report: { resource?: unknown }) {
      reports.loadFailure(typeof report?.resource === 'string' ? report.resource.slice(0, 1000) : 'unknown resource');
    },
  });
  return Object.freeze(methods);
}
