import { BRIDGE_PROTOCOL_VERSION, type GuestMethods, type HostMethods } from '../core/bridge/protocol.js';
import { createPluginApi } from '../guest/create-plugin-api.js';
import { reportCaughtErrors } from '../guest/error-reporter.js';
import { createGuestMethods } from '../guest/guest-methods.js';
import { createGuestParts } from '../guest/guest-parts.js';
import type { HostAccess } from '../guest/host-session.js';
import type { GuestIdentity } from '../guest/plugin-api.js';
import { createRateLimiter } from '../guest/rate-limiter.js';
import { GUEST_RUNTIME_VERSION } from '../guest/version.js';
import { unwrapResult } from '../guest/wire-result.js';
import { ownerSlot } from './inline-api-slot.js';

/**
 * The guest side of an inline plugin: the same API a frame's runtime builds, but talking to the
 * host's methods directly in this window instead of over a message channel. Makes it the
 * window's `__PLUGIN_API__`. Inline plugins share the launcher's window: nothing isolates them
 * (which is why the install dialog shows inline rendering at danger level).
 */
export function createInlineGuest(win: Window, hostMethods: HostMethods, pluginId: string): GuestMethods {
  // The host's methods answer WireResults (or nothing); the API's calls want values and thrown errors.
  const host: HostAccess = async (method, ...args) => {
    const answer: unknown = await (hostMethods[method] as (...values: unknown[]) => Promise<unknown>)(...args);
    return answer === undefined ? null : unwrapResult(answer);
  };
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
