/**
 * The methods a plugin reaches through `__PLUGIN_API__.call(name, ...args)`, with their parameter
 * and result types, derived from the core's bridge contract (the host's method table is built
 * from it): each entry's `signature` gives its types, so adding an entry is the only step. Types
 * only: these imports are erased, and the guest runtime never loads the contract.
 */
import type { BridgeContractEntry } from '../core/bridge/bridge-contract.js';
import type { BridgeCallMapOf } from '../core/bridge/bridge-method-contract.js';

export type * from '../core/bridge/bridge-call-types.js';

/**
 * Every method of `__PLUGIN_API__.call`, by name: its parameters (`args`) and what the promise
 * resolves with (`result`). Methods whose result the specification does not give resolve with
 * `void` (a confirmation) or `unknown` (a value the host may pass on). `docs/bridge.md` documents
 * each method and the permission it needs.
 */
export interface BridgeCallMap extends BridgeCallMapOf<BridgeContractEntry> {}

/** A name accepted by `__PLUGIN_API__.call`. */
export type BridgeMethodName = keyof BridgeCallMap;
