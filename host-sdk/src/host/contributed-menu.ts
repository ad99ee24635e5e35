import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { MenuRegistry } from './menu-registry.js';
import type { PluginUiAdapter } from './ui-adapter.js';

/**
 * Adds the sidebar items a manifest contributes (`contributes.menuItems`): each opens the plugin's
 * page at `/plugins/<id>/<path>`. They stay through a reload of the plugin's frame and go with a
 * full unload (`menu.remove(id, 'everything')`).
 */
export function addContributedMenuItems(manifest: PluginManifest, menu: MenuRegistry, ui: PluginUiAdapter): void {
  (manifest.contributes?.menuItems ?? []).forEach((item, index) => {
    const route = `/plugins/${manifest.id}/${item.path}`;
    menu.add({
      pluginId: manifest.id,
      id: `menu-${index}`,
      label: item.label,
      path: item.path,
      route,
      dynamic: false,
      order: index,
      ...(item.icon !== undefined ? { icon: item.icon } : {}),
      activate: () => ui.navigate(route, manifest.id),
    });
  });
}
