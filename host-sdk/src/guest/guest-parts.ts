/** The registries a guest's API and its guest methods are built on, created together. */
import { createEventListeners } from './event-listeners.js';
import type { GuestParts } from './guest-methods.js';
import { createHookRegistry } from './hook-registry.js';
import type { HostAccess } from './host-session.js';
import { createMenuItemRegistry } from './menu-item-registry.js';
import { createMethodRegistry } from './method-registry.js';
import { createStreamRegistry } from './stream-registry.js';

/** The method, hook, menu item, stream and event registries of one plugin, talking to `host`. */
export function createGuestParts(host: HostAccess, newId: () => string): GuestParts {
  return {
    methods: createMethodRegistry(host),
    hooks: createHookRegistry(host, newId),
    menuItems: createMenuItemRegistry(host),
    streams: createStreamRegistry(host, newId),
    events: createEventListeners(),
  };
}
