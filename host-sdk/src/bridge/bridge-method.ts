import type { BridgeMethodContract, CallBridgeMethodContract, DirectBridgeMethodContract } from '../core/bridge/bridge-method-contract.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { HostServices } from '../host/host-services.js';

// The contract half of a method lives in the isomorphic core; these names stay importable here.
export { signature } from '../core/bridge/bridge-method-contract.js';
export type { BridgeCallMapOf, BridgeSignature } from '../core/bridge/bridge-method-contract.js';

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

/**
 * One entry of the bridge method table: a method's contract (name, permission, `direct`,
 * `signature`) and the handler that runs it.
 */
export interface BridgeMethod extends BridgeMethodContract {
  /** Runs the call; arguments are plain data already (functions never cross). Throw `BridgeFailure` to reject with a given text. */
  readonly handler: (context: BridgeCallContext, args: readonly unknown[]) => unknown;
}

/**
 * Builds a table entry (a launcher's own `extraMethods`, say). The entry keeps its literal `name`,
 * `direct` and `signature` types, so `BridgeCallMapOf` can derive its `call` types.
 */
export function bridgeMethod<const M extends BridgeMethod>(method: M): M {
  return method;
}

/** A table entry reachable through `call`, with its signature. */
export type CallBridgeMethod = BridgeMethod & CallBridgeMethodContract;

/** A table entry that is a direct member of `__PLUGIN_API__`. */
export type DirectBridgeMethod = BridgeMethod & DirectBridgeMethodContract;
