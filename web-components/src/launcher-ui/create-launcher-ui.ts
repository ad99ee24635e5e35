import type { HostMenuItem, OverlayAdapter, PluginUiAdapter } from '@plughost/host-sdk';
import type { PluginConsentDialog } from '../plugin-consent-dialog.js';
import type { PluginDownloadCenter } from '../plugin-download-center.js';
import type { PluginSidebar } from '../plugin-sidebar.js';
import type { PluginToasts } from '../plugin-toasts.js';

/** The elements and callbacks the default UI adapter drives. */
export interface LauncherUiParts {
  readonly toasts: PluginToasts;
  readonly consent: PluginConsentDialog;
  readonly sidebar: PluginSidebar;
  readonly overlays: OverlayAdapter;
  readonly downloads?: PluginDownloadCenter;
  /** Goes to an internal route (already checked to be internal by the host). */
  navigate(route: string): void;
  /** Opens Settings → Plugins → Plugin settings at the plugin's tab. */
  openPluginSettings(pluginId: string): void;
  /** The appearance setting's colour (`#rrggbb`), or null. */
  themeColor(): string | null;
  /** A plugin's display name, for toasts and prompts. */
  pluginName(pluginId: string): string;
}

/**
 * The default `PluginUiAdapter`, built on this package's elements: toasts in `<plugin-toasts>`,
 * consent in `<plugin-consent-dialog>`, menu items in `<plugin-sidebar>`, overlays in an overlay
 * layer (`createOverlayLayer`), install records in `<plugin-download-center>`.
 *
 * @example
 * ```ts
 * const ui = createLauncherUi({ toasts, consent, sidebar, overlays: createOverlayLayer({...}), navigate: (route) => router.go(route), ... });
 * const host = new PluginHost({ baseUrl: location.origin, token, ui, frameContainer, guestRuntime });
 * ```
 */
export function createLauncherUi(parts: LauncherUiParts): PluginUiAdapter {
  let items: HostMenuItem[] = [];
  const publish = (): void => {
    parts.sidebar.items = [...items];
  };
  return {
    showToast: (message, type, pluginId) => parts.toasts.show(message, type, { pluginId, pluginName: parts.pluginName(pluginId) }),
    navigate: (route) => parts.navigate(route),
    openPluginSettings: (pluginId) => parts.openPluginSettings(pluginId),
    requestFileAccess: (request) => parts.consent.ask(request),
    addMenuItem: (item) => {
      items = [...items.filter((other) => !(other.pluginId === item.pluginId && other.id === item.id)), item];
      publish();
    },
    removeMenuItem: (pluginId, itemId) => {
      items = items.filter((item) => !(item.pluginId === pluginId && item.id === itemId));
      publish();
    },
    overlays: parts.overlays,
    getThemeColor: () => parts.themeColor(),
    registerInstall: (record) => parts.downloads?.addInstallRecord(record),
  };
}
