import type { GuestMethods } from '../core/bridge/protocol.js';

/** Every guest method, listed as a complete record so a new one cannot be forgotten here. */
const GUEST_METHODS: Readonly<Record<keyof GuestMethods, true>> = {
  invokeMethod: true,
  runHook: true,
  streamEvent: true,
  menuItemActivated: true,
  deliverEvent: true,
  ping: true,
};

/**
 * A plugin's side of the bridge that can be used before its frame has connected: each call waits
 * for the connection and then goes to the frame, or rejects with the connection's failure. The
 * host can hand out a plugin (to events, hooks, cross-plugin calls) from the moment activation
 * starts, and nothing ever calls into a guest that is not there yet.
 */
export function guestWhenConnected(connected: Promise<GuestMethods>): GuestMethods {
  const guest = Object.create(null) as Record<string, unknown>;
  for (const name of Object.keys(GUEST_METHODS) as (keyof GuestMethods)[]) {
    guest[name] = (...args: unknown[]) => connected.then((remote) => (remote[name] as (...values: unknown[]) => Promise<unknown>)(...args));
  }
  return Object.freeze(guest) as unknown as GuestMethods;
}
