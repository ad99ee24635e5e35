/** `addMenuItem` / `menuItemActivated`: the item goes to the host, its `onClick` stays here. */
import type { WireMenuItem } from '../core/bridge/protocol.js';
import type { PluginMenuItem } from './plugin-api.js';
import type { HostAccess } from './host-session.js';
import { bridgeError } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { callHostDirect } from './host-calls.js';
import { isName, isRecord } from './guards.js';
import { callIsolated } from './isolated-call.js';

/** The actions of the menu items this plugin added. */
export interface MenuItemRegistry {
  /** `__PLUGIN_API__.addMenuItem`. */
  add(item: PluginMenuItem): Promise<void>;
  /** `GuestMethods.menuItemActivated`: runs the item's `onClick`, if it has one. */
  activated(itemId: unknown): void;
}

/** The serialisable part of a menu item, checked field by field. */
function wireItemOf(item: unknown): WireMenuItem {
  if (!isRecord(item)) throw bridgeError('addMenuItem needs an item object', 'INVALID_ARGUMENT');
  const { id, label, icon, route, order } = item;
  if (!isName(id)) throw bridgeError('A menu item needs an id', 'INVALID_ARGUMENT');
  if (typeof label !== 'string') throw bridgeError('A menu item needs a label', 'INVALID_ARGUMENT');
  const optional = (field: string, value: unknown, type: 'string' | 'number'): void => {
    if (value !== undefined && typeof value !== type) throw bridgeError(`Menu item ${field} must be a ${type}`, 'INVALID_ARGUMENT');
  };
  optional('icon', icon, 'string');
  optional('route', route, 'string');
  optional('order', order, 'number');
  return {
    id,
    label,
    ...(typeof icon === 'string' ? { icon } : {}),
    ...(typeof route === 'string' ? { route } : {}),
    ...(typeof order === 'number' ? { order } : {}),
  };
}

/** A registry whose actions live only in this closure, keyed by item id; what they throw goes to `errors`. */
export function createMenuItemRegistry(host: HostAccess, errors: CaughtErrors): MenuItemRegistry {
  const actions = new Map<string, () => unknown>();

  return {
    async add(item) {
      const wireItem = wireItemOf(item);
      const onClick: unknown = item.onClick;
      if (onClick !== undefined && typeof onClick !== 'function') {
        throw bridgeError('Menu item onClick must be a function', 'INVALID_ARGUMENT');
      }
      await callHostDirect(host, 'addMenuItem', [wireItem]);
      if (typeof onClick === 'function') actions.set(wireItem.id, onClick as () => unknown);
      else actions.delete(wireItem.id);
    },

    activated(itemId) {
      const action = isName(itemId) ? actions.get(itemId) : undefined;
      if (action) callIsolated(() => action(), errors, `addMenuItem('${String(itemId)}') onClick`);
    },
  };
}
