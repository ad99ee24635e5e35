import { isValidPluginId } from '../../core/manifest/plugin-id.js';
import { BridgeFailure } from '../../host/backend-client.js';
import type { ToastType } from '../../host/ui-adapter.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { internalRoute } from '../internal-route.js';
import { badArgument, objectArgument, optionalNumber, stringArgument } from './arguments.js';

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
    const item = objectArgument('addMenuItem', args, 0, 'item');
    const id = stringArgument('addMenuItem', [item.id], 0, 'id');
    const label = stringArgument('addMenuItem', [item.label], 0, 'label');
    const icon = item.icon;
    if (icon !== undefined && typeof icon !== 'string') throw badArgument('addMenuItem', '"icon" must be a string');
    const route = item.route === undefined ? undefined : internalRoute(item.route);
    const order = optionalNumber('addMenuItem', item.order, 'order');
    const guest = services.active(plugin.id)?.guest;
    if (!guest) throw new BridgeFailure({ message: 'addMenuItem: the plugin is not active' });
    services.menu.add({
      pluginId: plugin.id,
      id,
      label: label.slice(0, 100),
      dynamic: true,
      ...(icon !== undefined ? { icon } : {}),
      ...(route !== undefined ? { route } : {}),
      ...(order !== undefined ? { order } : {}),
      activate: () => {
        if (route !== undefined) services.ui.navigate(route, plugin.id);
        else void guest.menuItemActivated(id).catch(() => undefined);
      },
    });
    return null;
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
