import { BRIDGE_CONTRACT, type BridgeContractEntry, type BridgeMethodGroup } from '../core/bridge/bridge-contract.js';
import type { BridgeMethod } from './bridge-method.js';
import { lazyHandlers, type BridgeHandler } from './lazy-handlers.js';

/** The names of the contract's methods whose handlers live in `Group`'s module. */
type GroupMethodName<Group extends BridgeMethodGroup> = Extract<BridgeContractEntry, { readonly group: Group }>['name'];

/**
 * Each handler group of the contract and where its module is. A group's handlers load on the
 * first call of one of its methods (lazy-handlers.ts): a launcher page starts with the contract
 * alone. Typed by the contract, so a method whose group module has no handler for it does not
 * compile.
 */
const HANDLER_GROUPS: { readonly [Group in BridgeMethodGroup]: (name: GroupMethodName<Group>) => BridgeHandler } = {
  data: lazyHandlers('data', () => import('./methods/data-methods.js')),
  backend: lazyHandlers('backend', () => import('./methods/backend-methods.js')),
  network: lazyHandlers('network', () => import('./methods/network-methods.js')),
  files: lazyHandlers('files', () => import('./methods/file-methods.js')),
  system: lazyHandlers('system', () => import('./methods/system-methods.js')),
  ui: lazyHandlers('ui', () => import('./methods/ui-methods.js')),
  overlay: lazyHandlers('overlay', () => import('./methods/overlay-methods.js')),
  download: lazyHandlers('download', () => import('./methods/download-methods.js')),
  plugins: lazyHandlers('plugins', () => import('./methods/plugin-methods.js')),
  wasm: lazyHandlers('wasm', () => import('./methods/wasm-methods.js')),
};

/** The lazy handler of one contract method, from its group. */
function handlerOf<Group extends BridgeMethodGroup>(group: Group, name: GroupMethodName<Group>): BridgeHandler {
  return HANDLER_GROUPS[group](name);
}

/**
 * One entry of the built-in table: a contract entry (literal name, group and signature) with its
 * handler. The guest's `BridgeCallMap` is derived from the same entries' contract
 * (`BridgeCallMapOf<BridgeContractEntry>`); `BridgeCallMapOf<BridgeTableEntry>` is the same map.
 */
export type BridgeTableEntry = BridgeContractEntry & { readonly handler: BridgeHandler };

/**
 * Every bridge method (the specification's "Bridge methods" table): the core's `BRIDGE_CONTRACT`
 * (name, permission, `direct`, signature), in its order, each with the handler of its group.
 * Adding a method is one contract entry (`core/bridge/bridge-contract.ts`) and its handler in its
 * group's module (`methods/*-methods.ts`).
 */
export const BRIDGE_METHODS: readonly BridgeMethod[] = Object.freeze(
  BRIDGE_CONTRACT.map((entry): BridgeTableEntry => ({ ...entry, handler: handlerOf(entry.group, entry.name) })),
);
