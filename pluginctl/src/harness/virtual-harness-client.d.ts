/**
 * The harness page's browser files, made by `build-client.mjs` when rollup builds the pluginctl
 * file (rollup.config.mjs resolves this id), so they travel inside that one file.
 */
declare module 'virtual:harness-client' {
  /** The page's module script: the launcher elements, the plugin host and the harness app, minified. */
  export const script: string;
  /** The page's stylesheet. */
  export const stylesheet: string;
  /** The guest runtime the host injects into every plugin frame (`host-sdk/dist/guest-runtime.iife.js`). */
  export const guestRuntime: string;
}
