/** The methods the host calls in this frame ({@link GuestMethods}), over the registries. */
import type { GuestMethods } from '../core/bridge/protocol.js';
import type { EventListeners } from './event-listeners.js';
import type { HookRegistry } from './hook-registry.js';
import type { MenuItemRegistry } from './menu-item-registry.js';
import type { MethodRegistry } from './method-registry.js';
import type { StreamRegistry } from './stream-registry.js';

/** What the guest methods dispatch to. */
export interface GuestParts {
  readonly methods: MethodRegistry;
  readonly hooks: HookRegistry;
  readonly menuItems: MenuItemRegistry;
  readonly streams: StreamRegistry;
  readonly events: EventListeners;
}

/**
 * The guest side of the protocol. Arguments are typed by the protocol but checked anyway (the
 * registries validate every shape), and nothing here throws back at the host: answers are
 * WireResults, notifications return nothing.
 */
export function createGuestMethods({ methods, hooks, menuItems, streams, events }: GuestParts): GuestMethods {
  return {
    invokeMethod: methods.invoke,
    runHook: hooks.run,
    streamEvent: streams.deliver,
    menuItemActivated: menuItems.activated,
    deliverEvent: events.deliver,
    ping: async () => 'pong',
  };
}
