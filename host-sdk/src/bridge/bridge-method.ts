import type { PermissionId, PluginManifest } from '../core/index.js';
import type { HostServices } from '../host/host-services.js';

/** The plugin making a bridge call: always the identity of its connection, never an argument. */
export interface CallingPlugin {
  readonly id: string;
  readonly manifest: PluginManifest;
}

/** What a bridge method handler receives besides its arguments. */
export interface BridgeCallContext {
  readonly plugin: CallingPlugin;
  readonly services: HostServices;
}

/** One entry of the bridge method table. */
export interface BridgeMethod {
  /** The name a plugin uses (`call(name)`, or the direct member's name). */
  readonly name: string;
  /** The permission the calling plugin's manifest must list; `null` for none (`addMenuItem`). */
  readonly permission: PermissionId | null;
  /** A direct member of `__PLUGIN_API__` (not reachable through `call`). */
  readonly direct?: boolean;
  /** Runs the call; arguments are plain data already (functions never cross). Throw `BridgeFailure` to reject with a given text. */
  readonly handler: (context: BridgeCallContext, args: readonly unknown[]) => unknown;
}

/** Builds a table entry (keeps the literal `name` for type inference in groups). */
export function bridgeMethod(method: BridgeMethod): BridgeMethod {
  return method;
}
