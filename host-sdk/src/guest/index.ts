/**
 * The guest runtime: the classic script injected into every plugin frame. It will build
 * `window.__PLUGIN_API__` on the bridge connection; for now it announces its version so the host
 * can tell the runtime was injected and which one.
 */
const GUEST_RUNTIME_VERSION = '0.1.0';

declare global {
  interface Window {
    __PLUGIN_GUEST_RUNTIME__?: { readonly version: string };
  }
}

Object.defineProperty(window, '__PLUGIN_GUEST_RUNTIME__', {
  value: Object.freeze({ version: GUEST_RUNTIME_VERSION }),
  enumerable: false,
  configurable: false,
  writable: false,
});

export {};
