/**
 * The shapes of `contributes.*` in a manifest: what a plugin adds to the launcher's interface.
 * Every file path is a package path (relative, forward slashes) resolved inside the package.
 */

/**
 * A sidebar entry (`contributes.menuItems[]`). The first item's icon is also the plugin card icon.
 *
 * @example
 * ```json
 * { "path": "dist/index.html", "label": "Server list", "icon": "ri-server-line", "action": "page" }
 * ```
 */
export interface PluginMenuItem {
  /** Package path of the page shown when the entry is chosen, such as `dist/index.html`. */
  readonly path: string;
  /** The entry's text. */
  readonly label: string;
  /** An icon-font class string (preferred), an `https:` or `data:image/` URL, or a package path of an image. */
  readonly icon?: string;
  /** What choosing the entry does; `page` (the default and only value) shows `path`. */
  readonly action?: 'page';
}

/**
 * A tab under Settings, Plugins, Plugin settings (`contributes.settingsPages[]`). When a plugin has
 * several, `openPluginSettings` opens the first.
 *
 * @example
 * ```json
 * { "id": "general", "title": "Server list", "path": "dist/settings.html" }
 * ```
 */
export interface SettingsPageContribution {
  /** A stable id, unique among the plugin's settings pages (letters, digits, `.`, `_`, `-`, `:`). */
  readonly id?: string;
  /** The tab title. */
  readonly title: string;
  /** Package path of the settings page. */
  readonly path: string;
}

/**
 * A command with an optional keyboard shortcut (`contributes.commands[]`). When the shortcut is
 * pressed the launcher calls `method` (default: the command `id`), which the plugin registered
 * with `registerMethod`.
 *
 * @example
 * ```json
 * { "id": "refresh", "title": "Refresh the server list", "shortcut": "Ctrl+Shift+R", "method": "refreshServers" }
 * ```
 */
export interface CommandContribution {
  /** A stable id, unique among the plugin's commands (letters, digits, `.`, `_`, `-`, `:`). */
  readonly id: string;
  /** What the command does, as shown in shortcut lists. */
  readonly title: string;
  /** A shortcut such as `Ctrl+Shift+K` (see `findShortcutProblem` for the grammar). */
  readonly shortcut?: string;
  /** The registered method the launcher calls; defaults to `id`. */
  readonly method?: string;
}

/**
 * An overlay window the plugin provides (`contributes.overlay`). The options match those of
 * `overlay.create`, with a package file instead of inline HTML.
 *
 * @example
 * ```json
 * { "file": "dist/overlay.html", "title": "FPS", "x": 16, "y": 16, "width": 240, "height": 120, "minimizable": true, "resizable": false }
 * ```
 */
export interface OverlayContribution {
  /** Package path of the overlay's HTML page. */
  readonly file: string;
  /** The window title. */
  readonly title?: string;
  /** Initial left position in CSS pixels, 0 or more. */
  readonly x?: number;
  /** Initial top position in CSS pixels, 0 or more. */
  readonly y?: number;
  /** Initial width in CSS pixels, more than 0. */
  readonly width?: number;
  /** Initial height in CSS pixels, more than 0. */
  readonly height?: number;
  /** Whether the player may minimize it. */
  readonly minimizable?: boolean;
  /** Whether the player may resize it. */
  readonly resizable?: boolean;
}

/** What a plugin adds to the launcher (`contributes`). Every field is optional. */
export interface Contributes {
  /** Sidebar entries. */
  readonly menuItems?: readonly PluginMenuItem[];
  /** Tabs under Settings, Plugins, Plugin settings. */
  readonly settingsPages?: readonly SettingsPageContribution[];
  /** Commands with keyboard shortcuts. */
  readonly commands?: readonly CommandContribution[];
  /** An overlay window. */
  readonly overlay?: OverlayContribution;
  /** Package path of the icon-theme JSON of a theme package. */
  readonly iconTheme?: string;
  /** Font stylesheets injected as link elements on activation: package paths or `https:` URLs. */
  readonly fontLinks?: readonly string[];
  /** Reserved; currently unused. Kept as a JSON copy of what the manifest wrote. */
  readonly downloadSources?: unknown;
}
