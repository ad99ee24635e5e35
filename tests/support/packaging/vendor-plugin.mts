// Type-checked (not run) in the temporary vendor app of tests/e2e/packaging.test.ts: a plugin's
// page using the guest API's types as docs/bridge.md shows (types only; the launcher provides the
// runtime).
/// <reference types="@plughost/host-sdk/guest-global" />
import type { BridgeError, HookHandler, PluginApi } from '@plughost/host-sdk/guest';

const api: PluginApi = window.__PLUGIN_API__;
try {
  const entry = await api.call('readText', '/home/me/notes.txt');
  console.log(entry.path, entry.content.length);
} catch (error) {
  console.error((error as BridgeError).code);
}
export const logCalls: HookHandler = async (ctx, next) => {
  console.log(ctx);
  return next();
};
