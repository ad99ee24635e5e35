import type { Connection } from 'penpal';
import type { GuestMethods } from '../core/bridge/protocol.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import { destroyOverlaysOf } from '../bridge/plugin-overlays.js';
import type { InlineMount } from '../frame/inline-mount.js';
import type { GuestMethodMap } from './frame-connection.js';
import type { HostEvents } from './host-events.js';
import type { ActivePlugin, HostServices, PluginRuntimeState } from './host-services.js';
import { releaseInlineApi } from './inline-api-slot.js';
import { guestWhenConnected } from './pending-guest.js';

/** A plugin the host is running or loading, with what it has to release when it stops. */
export interface RunningPlugin extends Omit<ActivePlugin, 'guest' | 'state'> {
  /** Secondary pages opened with `openPage`, closed with the plugin. */
  readonly pages: Set<() => void>;
  guest: GuestMethods;
  state: PluginRuntimeState;
  /** Settles `ready`. */
  settle(active: boolean): void;
  frame?: HTMLIFrameElement;
  inline?: InlineMount;
  connection?: Connection<GuestMethodMap>;
  /** Stops the heartbeat of a sandboxed plugin. */
  stopHeartbeat?: () => void;
}

/** A plugin just registered as loading, and the two ends of its connection. */
export interface LoadingPlugin {
  readonly plugin: RunningPlugin;
  /** Hands the connected guest to every call made while the plugin loaded. */
  connected(guest: GuestMethods): void;
  /** Rejects those calls (and later ones) with `error`. */
  notConnected(error: Error): void;
}

/** What {@link RunningPlugins} releases a plugin's resources with. */
export interface RunningPluginsOptions {
  readonly services: HostServices;
  readonly events: HostEvents;
  readonly document: Document;
}

/**
 * The plugins the host runs, in activation order (which is also the order of hook layers), from
 * the moment their activation starts until they are deactivated.
 */
export class RunningPlugins {
  private readonly plugins = new Map<string, RunningPlugin>();

  constructor(private readonly options: RunningPluginsOptions) {}

  get(id: string): RunningPlugin | undefined {
    return this.plugins.get(id);
  }

  has(id: string): boolean {
    return this.plugins.has(id);
  }

  /** Ids in activation order. */
  ids(): string[] {
    return [...this.plugins.keys()];
  }

  /** The plugins by id, in activation order (what the dependency gate reads). */
  get byId(): ReadonlyMap<string, RunningPlugin> {
    return this.plugins;
  }

  /** False once `plugin` was deactivated (or replaced by a new activation of the same id). */
  isCurrent(plugin: RunningPlugin): boolean {
    return this.plugins.get(plugin.id) === plugin;
  }

  /**
   * Registers `manifest`'s plugin as loading. Its `guest` is usable at once: calls wait until
   * `connected` or fail with what `notConnected` was given.
   */
  register(manifest: PluginManifest): LoadingPlugin {
    let settle: (active: boolean) => void = () => {};
    const ready = new Promise<boolean>((resolve) => (settle = resolve));
    let connected: (guest: GuestMethods) => void = () => {};
    let notConnected: (error: Error) => void = () => {};
    const guest = new Promise<GuestMethods>((resolve, reject) => {
      connected = resolve;
      notConnected = reject;
    });
    // A plugin nobody called before it failed must not leave an unhandled rejection behind.
    guest.catch(() => undefined);
    const plugin: RunningPlugin = {
      id: manifest.id,
      name: manifest.name,
      manifest,
      mode: manifest.render === 'inline' ? 'inline' : 'sandbox',
      state: 'loading',
      guest: guestWhenConnected(guest),
      ready,
      settle,
      pages: new Set(),
    };
    this.plugins.set(manifest.id, plugin);
    return { plugin, connected, notConnected };
  }

  /** Drops what a plugin's document registered (methods, hooks, dynamic menu items, streams): its functions go with it. */
  forgetDocumentState(id: string): void {
    const { services } = this.options;
    services.methods.removeAll(id);
    services.hooks.removeAll(id);
    services.menu.remove(id, 'dynamic');
    for (const stream of services.streams.idsOf(id)) {
      services.streams.get(id, stream)?.abort();
      services.streams.delete(stream);
    }
  }

  /**
   * Stops a plugin: its methods, hooks, dynamic menu items, overlays and streams go, its pages,
   * frame (or inline content) and theme are removed, and a `deactivated` event is sent.
   */
  deactivate(id: string): void {
    const plugin = this.plugins.get(id);
    if (!plugin) return;
    const { services, events, document } = this.options;
    plugin.stopHeartbeat?.();
    this.forgetDocumentState(id);
    destroyOverlaysOf(services, id);
    for (const close of [...plugin.pages]) close();
    plugin.connection?.destroy();
    plugin.frame?.remove();
    plugin.inline?.unmount();
    if (plugin.mode === 'inline') releaseInlineApi(document.defaultView ?? window, id);
    services.theme.removeTheme(id);
    services.theme.removeFontLinks(id);
    this.plugins.delete(id);
    events.emit({ type: 'deactivated', pluginId: id });
  }
}
