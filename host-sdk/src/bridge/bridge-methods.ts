import type { BridgeMethod, CallBridgeMethod, DirectBridgeMethod } from './bridge-method.js';
import { BACKEND_METHODS } from './methods/backend-methods.js';
import { DATA_METHODS } from './methods/data-methods.js';
import { DOWNLOAD_METHODS } from './methods/download-methods.js';
import { FILE_METHODS } from './methods/file-methods.js';
import { NETWORK_METHODS } from './methods/network-methods.js';
import { OVERLAY_METHODS } from './methods/overlay-methods.js';
import { PLUGIN_METHODS } from './methods/plugin-methods.js';
import { SYSTEM_METHODS } from './methods/system-methods.js';
import { UI_METHODS } from './methods/ui-methods.js';
import { WASM_METHODS } from './methods/wasm-methods.js';

/**
 * The table with each entry's own type (literal name, signature): `satisfies` checks that every
 * `call` method carries a signature without widening the entries.
 */
const TABLE = Object.freeze([
  ...DATA_METHODS,
  ...BACKEND_METHODS,
  ...NETWORK_METHODS,
  ...FILE_METHODS,
  ...SYSTEM_METHODS,
  ...UI_METHODS,
  ...OVERLAY_METHODS,
  ...DOWNLOAD_METHODS,
  ...PLUGIN_METHODS,
  ...WASM_METHODS,
]) satisfies readonly (CallBridgeMethod | DirectBridgeMethod)[];

/**
 * One entry of the built-in table, with its literal name and signature: the guest's
 * `BridgeCallMap` is derived from these (`BridgeCallMapOf<BridgeTableEntry>`).
 */
export type BridgeTableEntry = (typeof TABLE)[number];

/**
 * Every bridge method (the specification's "Bridge methods" table): name, permission, signature,
 * handler. Adding a method is one entry in one of these groups: the guest's method types follow
 * from the entry, and `docs/bridge.md` documents each (a test checks both lists agree). Each
 * `call` method must carry its signature; direct members are typed on `PluginApi`.
 */
export const BRIDGE_METHODS: readonly BridgeMethod[] = TABLE;
