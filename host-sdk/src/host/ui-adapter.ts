import type { OverlayOptions } from '../core/bridge/overlay-options.js';

export type { OverlayOptions };

/** Kinds of toast (`showToast`). */
export type ToastType = 'info' | 'error' | 'success';

/** A sidebar item, from `contributes.menuItems` or added at run time with `addMenuItem`. */
export interface HostMenuItem {
  /** The plugin that owns it. */
  readonly pluginId: string;
  /** Unique within the plugin (`contributes` items use `menu-<index>`). */
  readonly id: string;
  readonly label: string;
  readonly icon?: string;
  /** A package path shown as the plugin's page (`contributes`), or an internal route. */
  readonly path?: string;
  readonly route?: string;
  readonly order?: number;
  /** `true` for items added with `addMenuItem` (removed on deactivation). */
  readonly dynamic: boolean;
  /** Runs the item: navigation or the plugin's own `onClick` in its frame. */
  activate(): void;
}

/** What a plugin asks the user about when a file route answers `FS_AUTHORIZATION_REQUIRED`. */
export interface FileAccessRequest {
  readonly pluginId: string;
  readonly pluginName: string;
  /** The folder to allow (absolute path). */
  readonly prefix: string;
  readonly operation: 'read' | 'write';
}

/** The overlay windows of the launcher (`overlay.*`). Ids are the host's; ownership is checked by the host. */
export interface OverlayAdapter {
  create(pluginId: string, overlayId: string, options: OverlayOptions): void | Promise<void>;
  show(overlayId: string): void;
  hide(overlayId: string): void;
  destroy(overlayId: string): void;
  setHtml(overlayId: string, html: string): void;
  setPosition(overlayId: string, x: number, y: number): void;
}

/** A game-install task recorded in the download centre (`download.registerInstall`). */
export interface InstallRecord {
  readonly pluginId: string;
  readonly instanceId: string;
  readonly name: string;
  readonly gameVersion: string;
  readonly loader: string;
  readonly loaderVersion: string;
}

/**
 * The launcher's user interface as the host needs it. A vendor implements it with their own UI;
 * the web components of `@plughost/web-components` provide a default implementation.
 * Every method receives data only: nothing a plugin sent is HTML the adapter should render as
 * markup, except `overlay.setHtml`, whose HTML goes into a sandboxed overlay frame.
 */
export interface PluginUiAdapter {
  showToast(message: string, type: ToastType, pluginId: string): void;
  /** Navigates to an internal route (already checked to be internal). */
  navigate(route: string, pluginId: string): void;
  /** Opens Settings, Plugins, Plugin settings at `targetPluginId`'s tab. */
  openPluginSettings(targetPluginId: string): void;
  /** Asks the user; true when they agreed. */
  requestFileAccess(request: FileAccessRequest): Promise<boolean>;
  addMenuItem(item: HostMenuItem): void;
  removeMenuItem(pluginId: string, itemId: string): void;
  readonly overlays: OverlayAdapter;
  /** `#rrggbb` from the appearance settings, or null (`getThemeColor`). */
  getThemeColor(): string | null;
  /** Records a game-install task in the download centre (optional). */
  registerInstall?(record: InstallRecord): void;
}
