/** The registries a guest's API and its guest methods are built on, created together. */
import type { CaughtErrors } from './error-reporter.js';
import { createEventListeners } from './event-listeners.js';
import type { GuestParts } from './guest-methods.js';
import { createHookRegistry } from './hook-registry.js';
import type { HostAccess } from './host-session.js';
import { createMenuItemRegistry } from './menu-item-registry.js';
import { createMethodRegistry } from './method-registry.js';
import { createStreamRegistry } from './stream-registry.js';

/**
 * The method, hook, menu item, stream and event registries of one plugin, talking to `host`; what
 * the plugin's functions throw goes to `errors`.
 */
export function createGuestParts(host: HostAccess, newId: () => string, errors: CaughtErrors): GuestParts {
  return {
    methods: createMethodRegistry(host, errors),
    hooks: createHookRegistry(host, newId, errors),
    menuItems: createMenuItemRegistry(host, errors),
    streams: createStreamRegistry(host, newId, errors),
    events: createEventListeners(errors),
  };
}
