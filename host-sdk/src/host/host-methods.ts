import { BRIDGE_PROTOCOL_VERSION, type HostMethods } from '../core/bridge/protocol.js';
import { toPlainData } from '../core/bridge/plain-data.js';
import { toWireError } from '../core/bridge/bridge-errors.js';
import type { BridgeMethodIndex } from '../bridge/dispatch.js';
import { dispatchBridgeCall } from '../bridge/dispatch.js';
import type { CallingPlugin } from '../bridge/bridge-method.js';
import { abortStream } from '../bridge/plugin-streams.js';
import type { HostServices } from './host-services.js';

/** A runtime error as a plugin's frame reported it, checked and clipped. */
export interface GuestRuntimeError {
  /** `TypeError: x is not a function`, or the text saying that the engine hid it. */
  readonly message: string;
  /** Where: `file:line:column`, `unhandledrejection`, or the plugin function (`on('file-drop') listener`). */
  readonly source?: string;
  /** The error's stack, when the engine gave one. */
  readonly stack?: string;
  /** The engine hid the error's text (WebKit's "Script error." in a sandboxed frame). */
  readonly hidden?: true;
}

/** Longest message and source kept; the guest clips them too, but the frame is not trusted. */
const MAX_MESSAGE_LENGTH = 1000;
/** Longest stack kept. */
const MAX_STACK_LENGTH = 4000;

/** The fields of a `reportError` payload that have the right type, clipped. */
function runtimeErrorFrom(report: unknown): GuestRuntimeError {
  const fields = typeof report === 'object' && report !== null ? (report as Record<string, unknown>) : {};
  const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined);
  const source = text(fields.source, MAX_MESSAGE_LENGTH);
  const stack = text(fields.stack, MAX_STACK_LENGTH);
  return {
    message: text(fields.message, MAX_MESSAGE_LENGTH) ?? 'Unknown error',
    ...(source !== undefined ? { source } : {}),
    ...(stack !== undefined ? { stack } : {}),
    ...(fields.hidden === true ? { hidden: true as const } : {}),
  };
}

/** What the host does with the reports a plugin's frame sends. */
export interface GuestReports {
  runtimeError(report: GuestRuntimeError): void;
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
        return {
          ok: false as const,
          error: { message: `The guest runtime speaks bridge protocol ${String(version)}; this host speaks ${BRIDGE_PROTOCOL_VERSION}` },
        };
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
    async reportError(report: unknown) {
      reports.runtimeError(runtimeErrorFrom(report));
    },
    async reportLoadFailure(report: { resource?: unknown }) {
      reports.loadFailure(typeof report?.resource === 'string' ? report.resource.slice(0, 1000) : 'unknown resource');
    },
  });
  return Object.freeze(methods);
}
