import type { GuestMethods } from '../core/bridge/protocol.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { BackendClient } from './backend-client.js';
import type { HookRegistry } from './hook-registry.js';
import type { MenuRegistry } from './menu-registry.js';
import type { MethodRegistry } from './method-registry.js';
import type { OwnedIds } from './owned-ids.js';
import type { ThemeController } from './theme-controller.js';
import type { PluginUiAdapter } from './ui-adapter.js';

/** The state of an activated plugin. */
export type PluginRuntimeState = 'loading' | 'active' | 'unresponsive' | 'failed';

/** A plugin the host activated. */
export interface ActivePlugin {
  readonly id: string;
  readonly name: string;
  readonly manifest: PluginManifest;
  readonly mode: 'sandbox' | 'inline';
  readonly state: PluginRuntimeState;
  /**
   * The plugin's side of the bridge (its frame, or the shared window for inline plugins). Usable
   * while the plugin is still loading: calls wait for the connection.
   */
  readonly guest: GuestMethods;
  /** Settles when loading ends: `true` once the plugin is active, `false` when it failed. */
  readonly ready: Promise<boolean>;
}

/** What bridge method handlers use. One instance per host. */
export interface HostServices {
  readonly backend: BackendClient;
  readonly ui: PluginUiAdapter;
  readonly methods: MethodRegistry;
  readonly hooks: HookRegistry;
  readonly menu: MenuRegistry;
  readonly theme: ThemeController;
  /** Overlay ids and their owners. */
  readonly overlays: OwnedIds;
  /** Running proxied streams: their abort controllers and owners. */
  readonly streams: OwnedIds<AbortController>;
  /** Launcher routes `callBackend` may reach (decisions section 2). */
  readonly allowedLauncherRoutes: readonly string[];
  /** An activated plugin, or undefined. */
  active(pluginId: string): ActivePlugin | undefined;
  /** True when the backend lists `pluginId` as installed. */
  isInstalled(pluginId: string): boolean;
  /** Time limits of calls into other plugins' frames (cross-plugin calls, hook layers). */
  readonly timeouts: { readonly crossPluginCallMs: number };
}
