import { BRIDGE_PROTOCOL_VERSION, type GuestMethods, type HostMethods } from '../core/index.js';
import { createPluginApi } from '../guest/create-plugin-api.js';
import { reportCaughtErrors } from '../guest/error-reporter.js';
import { createGuestMethods } from '../guest/guest-methods.js';
import { createGuestParts } from '../guest/guest-parts.js';
import type { HostAccess, HostProxy } from '../guest/host-session.js';
import type { GuestIdentity, PluginApi } from '../guest/plugin-api.js';
import { createRateLimiter } from '../guest/rate-limiter.js';
import { GUEST_RUNTIME_VERSION } from '../guest/version.js';
import { unwrapResult } from '../guest/wire-result.js';

/** The API objects of inline plugins per window, and which one `__PLUGIN_API__` currently is. */
const windows = new WeakMap<Window, { current: PluginApi | undefined; owner?: string }>();

/**
 * Defines the shared window's `__PLUGIN_API__` once, as a getter the page cannot replace, whose
 * value is the API of the owning plugin: the last inline plugin loaded (specification).
 */
function ownerSlot(win: Window): { current: PluginApi | undefined; owner?: string } {
  let slot = windows.get(win);
  if (!slot) {
    const created: { current: PluginApi | undefined; owner?: string } = { current: undefined };
    Object.defineProperty(win, '__PLUGIN_API__', { get: () => created.current, enumerable: false, configurable: false });
    windows.set(win, created);
    slot = created;
  }
  return slot;
}

/**
 * The guest side of an inline plugin: the same API a frame's runtime builds, but talking to the
 * host's methods directly in this window instead of over a message channel. Makes it the
 * window's `__PLUGIN_API__`. Inline plugins share the launcher's window: nothing isolates them
 * (which is why the install dialog shows inline rendering at danger level).
 */
export function createInlineGuest(win: Window, hostMethods: HostMethods, pluginId: string): GuestMethods {
  const proxy = hostMethods as unknown as HostProxy;
  const host: HostAccess = () => Promise.resolve(proxy);
  const newId = (): string => crypto.randomUUID();
  // The same limit as a frame's runtime: 20 reports a minute.
  const parts = createGuestParts(host, newId, reportCaughtErrors(host, createRateLimiter({ limit: 20, windowMs: 60_000 })));
  const identity: Promise<GuestIdentity> = hostMethods
    .hello({ protocolVersion: BRIDGE_PROTOCOL_VERSION, runtimeVersion: GUEST_RUNTIME_VERSION })
    .then((answer) => unwrapResult(answer) as GuestIdentity);
  identity.catch(() => undefined);
  const slot = ownerSlot(win);
  slot.current = createPluginApi({ ...parts, host, identity, runtimeVersion: GUEST_RUNTIME_VERSION });
  slot.owner = pluginId;
  return createGuestMethods(parts);
}

/** After `pluginId` is deactivated the shared window's `__PLUGIN_API__` no longer acts for it. */
export function releaseInlineApi(win: Window, pluginId: string): void {
  const slot = windows.get(win);
  if (slot?.owner !== pluginId) return;
  slot.current = undefined;
  delete slot.owner;
}
