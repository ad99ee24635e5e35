/** `addMenuItem` / `menuItemActivated`: the item goes to the host, its `onClick` stays here. */
import type { PluginMenuItem } from './plugin-api.js';
import type { HostAccess } from './host-session.js';
import { requireArgument } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { isName, isRecord, withoutUndefined } from './guards.js';
import { callIsolated } from './isolated-call.js';

/** The actions of the menu items this plugin added. */
export interface MenuItemRegistry {
  /** `__PLUGIN_API__.addMenuItem`. */
  add(item: PluginMenuItem): Promise<void>;
  /** `GuestMethods.menuItemActivated`: runs the item's `onClick`, if it has one. */
  activated(itemId: unknown): Promise<void>;
}

/** A registry whose actions live only in this closure, keyed by item id; what they throw goes to `errors`. */
export function createMenuItemRegistry(host: HostAccess, errors: CaughtErrors): MenuItemRegistry {
  const actions = new Map<string, () => unknown>();

  return {
    async add(item) {
      requireArgument(isRecord(item), 'addMenuItem needs an item object');
      // Both shapes: the specification's page item (`path`, `action`) and the run-time item.
      const { id, label, icon, route, order, path, action, onClick } = item as Readonly<Record<string, unknown>>;
      requireArgument(isName(label), 'A menu item needs a label');
      requireArgument(isName(id) || isName(path), 'A menu item needs an id, or the path of a page');
      // Only the serialisable part crosses, field by field; the action stays here.
      const fields = { id, label, icon, route, order, path, action };
      for (const [field, value] of Object.entries(fields)) {
        const type = field === 'order' ? 'number' : 'string';
        requireArgument(value === undefined || typeof value === type, `Menu item ${field} must be a ${type}`);
      }
      requireArgument(onClick === undefined || typeof onClick === 'function', 'Menu item onClick must be a function');
      await host('callDirect', 'addMenuItem', [withoutUndefined(fields)]);
      if (!isName(id)) return;
      if (typeof onClick === 'function') actions.set(id, onClick as () => unknown);
      else actions.delete(id);
    },

    async activated(itemId) {
      const action = isName(itemId) ? actions.get(itemId) : undefined;
      if (action) callIsolated(() => action(), errors, `addMenuItem('${itemId}') onClick`);
    },
  };
}
