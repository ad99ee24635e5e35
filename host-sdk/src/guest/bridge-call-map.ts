/**
 * The methods a plugin reaches through `__PLUGIN_API__.call(name, ...args)`, with their parameter
 * and result types, derived from the host's bridge method table: each entry's `signature` gives
 * its types, so adding an entry is the only step. Types only: these imports are erased, and the
 * guest runtime never loads the table or its handlers.
 */
import type { BridgeCallMapOf } from '../bridge/bridge-method.js';
import type { BridgeTableEntry } from '../bridge/bridge-methods.js';

export type * from '../bridge/bridge-call-types.js';

/**
 * Every method of `__PLUGIN_API__.call`, by name: its parameters (`args`) and what the promise
 * resolves with (`result`). Methods whose result the specification does not give resolve with
 * `void` (a confirmation) or `unknown` (a value the host may pass on). `docs/bridge.md` documents
 * each method and the permission it needs.
 */
export interface BridgeCallMap extends BridgeCallMapOf<BridgeTableEntry> {}

/** A name accepted by `__PLUGIN_API__.call`. */
export type BridgeMethodName = keyof BridgeCallMap;
