/** The two ways the plugin's calls reach the host: `call` (the method table) and `callDirect`. */
import type { HostAccess } from './host-session.js';
import { unwrapResult } from './wire-result.js';

/** `__PLUGIN_API__.call(name, ...args)`: resolves with the value or rejects with the rebuilt error. */
export async function callHost(host: HostAccess, name: string, args: readonly unknown[]): Promise<unknown> {
  const remote = await host();
  return unwrapResult(await remote.call(name, args));
}

/** A direct member of `__PLUGIN_API__` (functions already replaced by names or ids). */
export async function callHostDirect(host: HostAccess, name: string, args: readonly unknown[]): Promise<unknown> {
  const remote = await host();
  return unwrapResult(await remote.callDirect(name, args));
}
