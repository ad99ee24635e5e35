import type { BridgeMethod } from './bridge-method.js';
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
 * Every bridge method (the specification's "Bridge methods" table): name, permission, handler.
 * Adding a method is one entry in one of these groups. `docs/bridge.md` documents each; a test
 * checks both lists agree.
 */
export const BRIDGE_METHODS: readonly BridgeMethod[] = Object.freeze([
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
]);
