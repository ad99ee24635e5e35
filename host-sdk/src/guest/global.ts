/**
 * The globals of a plugin frame, for plugin authors' type checking: include this module (or
 * `import type {} from '.../guest/global.js'`) to type `window.__PLUGIN_API__`.
 */
import type { PluginApi } from './plugin-api.js';

declare global {
  interface Window {
    /** The bridge to the launcher; defined by the guest runtime before any plugin script runs. */
    readonly __PLUGIN_API__: PluginApi;
    /** `{base_url}/api/plugins/<plugin_id>/files` in a sandbox frame; absent inline and in overlays. */
    __PLUGIN_API_BASE__?: string;
  }
  /** The bridge to the launcher (`window.__PLUGIN_API__`). */
  // eslint-disable-next-line no-var
  var __PLUGIN_API__: PluginApi;
}
