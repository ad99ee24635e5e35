import { isValidPluginId } from '../../core/manifest/plugin-id.js';
import { BridgeFailure } from '../../host/backend-client.js';
import type { ToastType } from '../../host/ui-adapter.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { internalRoute } from '../internal-route.js';
import { badArgument, objectArgument, stringArgument } from './arguments.js';
import { menuItemArgument } from './menu-item-argument.js';

const TOAST_TYPES: readonly ToastType[] = ['info', 'error', 'success'];
const MAX_TOAST_LENGTH = 500;

/** The launcher UI methods: navigation, settings, toasts, theme, menu items. */
export const handlers = {
  navigate: ({ plugin, services }, args) => {
    services.ui.navigate(internalRoute(args[0]), plugin.id);
    return null;
  },
  openPluginSettings: ({ plugin, services }, args) => {
    const target = args[0] ?? plugin.id;
    if (typeof target !== 'string' || !isValidPluginId(target)) throw badArgument('openPluginSettings', '"targetPluginId" must be a plugin id');
    services.ui.openPluginSettings(target);
    return null;
  },
  showToast: ({ plugin, services }, args) => {
    const message = stringArgument('showToast', args, 0, 'message');
    const type = args[1] ?? 'info';
    if (!TOAST_TYPES.includes(type as ToastType)) throw badArgument('showToast', '"type" must be info, error or success');
    services.ui.showToast(message.length > MAX_TOAST_LENGTH ? `${message.slice(0, MAX_TOAST_LENGTH)}…` : message, type as ToastType, plugin.id);
    return null;
  },
  getThemeColor: ({ services }) => services.ui.getThemeColor(),
  applyThemeOverride: ({ services }, args) => {
    services.theme.applyOverride(objectArgument('applyThemeOverride', args, 0, 'vars'));
    return null;
  },
  clearThemeOverride: ({ services }) => {
    services.theme.clearOverride();
    return null;
  },
  addMenuItem: ({ plugin, services }, args) => {
    const { id, label, icon, path, route, order } = menuItemArgument(args);
    const guest = services.active(plugin.id)?.guest;
    if (!guest) throw new BridgeFailure({ message: 'addMenuItem: the plugin is not active' });
    // A page item opens the plugin's page where `contributes.menuItems` pages open.
    const target = path !== undefined ? `/plugins/${plugin.id}/${path}` : route;
    services.menu.add({
      pluginId: plugin.id,
      id,
      label,
      dynamic: true,
      ...(icon !== undefined ? { icon } : {}),
      ...(path !== undefined ? { path } : {}),
      ...(target !== undefined ? { route: target } : {}),
      ...(order !== undefined ? { order } : {}),
      activate: () => {
        if (target !== undefined) services.ui.navigate(target, plugin.id);
        else void guest.menuItemActivated(id).catch(() => undefined);
      },
    });
    return null;
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
