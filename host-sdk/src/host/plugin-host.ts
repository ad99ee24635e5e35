import { BRIDGE_METHODS } from '../bridge/bridge-methods.js';
import type { BridgeMethod } from '../bridge/bridge-method.js';
import { indexMethods, type BridgeMethodIndex } from '../bridge/dispatch.js';
import { PluginActivation, type StartReport } from './activation.js';
import { BackendClient } from './backend-client.js';
import { PluginErrorReporter } from './error-reporter.js';
import { createHookRegistry } from './hook-layers.js';
import type { HookableMethod } from './hook-registry.js';
import { HostEvents, type PluginHostEvent } from './host-events.js';
import type { ActivePlugin, HostServices } from './host-services.js';
import { InstalledPlugins } from './installed-plugins.js';
import { MenuRegistry } from './menu-registry.js';
import { MethodRegistry } from './method-registry.js';
import { OwnedIds } from './owned-ids.js';
import { PageOpener } from './page-opener.js';
import { callPluginMethod } from './plugin-calls.js';
import { PluginFiles } from './plugin-files.js';
import { RunningPlugins } from './running-plugins.js';
import { SandboxDocuments } from './sandbox-documents.js';
import { ThemeController } from './theme-controller.js';
import type { PluginUiAdapter } from './ui-adapter.js';

export type { PluginHostEvent } from './host-events.js';
export type { FailedPlugin, StartReport } from './activation.js';

/** Options of {@link PluginHost}. */
export interface PluginHostOptions {
  /** The local backend's origin (`location.origin` when the launcher page is served by it). */
  readonly baseUrl: string;
  /** The backend's bearer token; it stays in the launcher page and is never given to a plugin. */
  readonly token: string;
  /** The launcher's UI (toasts, navigation, consent, menu, overlays). */
  readonly ui: PluginUiAdapter;
  /**
   * Where plugin frames live: one element for all, or a function giving each plugin's own (for
   * example its `<plugin-frame>`). Frames start hidden until the UI shows them, and are never
   * moved afterwards (moving an iframe reloads it).
   */
  readonly frameContainer: HTMLElement | ((pluginId: string) => HTMLElement);
  /** Where inline plugins are mounted (one element, or one per plugin); required for inline plugins. */
  readonly inlineContainer?: HTMLElement | ((pluginId: string) => HTMLElement);
  /** The guest runtime's source (the `guest-runtime.iife.js` bundle), or a function that loads it. */
  readonly guestRuntime: string | (() => Promise<string>);
  /** Launcher routes `callBackend` may reach, e.g. `['/instance', '/settings']`. Default none. */
  readonly allowedLauncherRoutes?: readonly string[];
  /** Launcher methods plugins may hook (`registerHook`). Default none. */
  readonly hookableMethods?: readonly HookableMethod[];
  /** Extra bridge methods of the vendor, added to the table (names must be new). */
  readonly extraMethods?: readonly BridgeMethod[];
  /** How often a frame is pinged, in milliseconds (default 5000). */
  readonly heartbeatIntervalMs?: number;
  /** How long a ping may take before the frame counts as not answering (default 3000). */
  readonly heartbeatTimeoutMs?: number;
  /**
   * How long each plugin's frame has to connect and say hello (default 10000). Every plugin has its
   * own: frames load in parallel, and a plugin that never connects delays no other.
   */
  readonly connectTimeoutMs?: number;
  /** Time limit of a cross-plugin call or one hook layer (default 30000). */
  readonly callTimeoutMs?: number;
  /** Nonce of the page's Content-Security-Policy, set on every script the host injects. */
  readonly cspNonce?: string;
  readonly document?: Document;
  readonly fetch?: typeof fetch;
}

/**
 * The plugin host of a launcher page: activates the backend's active plugins in dependency
 * order, each in a sandboxed frame (or inline when its manifest asks), connects every frame
 * with its own bridge connection, and answers the bridge from one permission-gated method table.
 *
 * The class only composes the parts that do each job: {@link PluginActivation} (start, activate),
 * {@link RunningPlugins} (what runs, deactivation), the hook registry, {@link HostEvents} and
 * {@link PageOpener}.
 *
 * @example
 * ```ts
 * const host = new PluginHost({ baseUrl: location.origin, token, ui, frameContainer, guestRuntime });
 * host.on((event) => console.info('[plugins]', event));
 * const report = await host.start();
 * ```
 */
export class PluginHost {
  private readonly events = new HostEvents();
  private readonly services: HostServices;
  private readonly running: RunningPlugins;
  private readonly installed: InstalledPlugins;
  private readonly index: BridgeMethodIndex;
  private readonly activation: PluginActivation;
  private readonly pages: PageOpener;
  /** The reload of each plugin in progress or waiting (see {@link PluginHost.reload}). */
  private readonly reloads = new Map<string, { waiting: boolean; done: Promise<void> }>();

  constructor(options: PluginHostOptions) {
    const document = options.document ?? globalThis.document;
    const backend = new BackendClient({ baseUrl: options.baseUrl, token: options.token, ...(options.fetch ? { fetch: options.fetch } : {}) });
    const sinks = { reporter: new PluginErrorReporter(backend), events: this.events };
    const files = new PluginFiles(backend);
    const documents = new SandboxDocuments({ files, guestRuntime: options.guestRuntime, ...(options.cspNonce ? { cspNonce: options.cspNonce } : {}) });
    const callTimeoutMs = options.callTimeoutMs ?? 30_000;
    this.installed = new InstalledPlugins(backend);
    this.index = indexMethods([...BRIDGE_METHODS, ...(options.extraMethods ?? [])]);
    this.services = {
      backend,
      ui: options.ui,
      methods: new MethodRegistry(),
      hooks: createHookRegistry({ hookableMethods: options.hookableMethods ?? [], running: () => this.running, events: this.events, timeoutMs: callTimeoutMs }),
      menu: new MenuRegistry(options.ui),
      theme: new ThemeController(document),
      overlays: new OwnedIds(),
      streams: new OwnedIds<AbortController>(),
      allowedLauncherRoutes: options.allowedLauncherRoutes ?? [],
      active: (id) => this.running.get(id),
      isInstalled: (id) => this.installed.has(id),
      timeouts: { crossPluginCallMs: callTimeoutMs },
    };
    this.running = new RunningPlugins({ services: this.services, events: this.events, document });
    const parts = { document, services: this.services, running: this.running, files, documents, sinks, index: this.index };
    this.activation = new PluginActivation({
      ...parts,
      installed: this.installed,
      frameContainer: options.frameContainer,
      inlineContainer: options.inlineContainer,
      cspNonce: options.cspNonce,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      heartbeat: { intervalMs: options.heartbeatIntervalMs ?? 5000, timeoutMs: options.heartbeatTimeoutMs ?? 3000 },
    });
    this.pages = new PageOpener(parts);
  }

  /** Listens to host events; returns the function that stops listening. */
  on(listener: (event: PluginHostEvent) => void): () => void {
    return this.events.on(listener);
  }

  /**
   * Reads the backend's plugin list and activates every `active` plugin with `entry.frontend`.
   * All frames load at once; dependency order decides who activates first (a plugin's `hello` is
   * answered after the plugins it depends on have activated), and each plugin has its own connect
   * timeout, so a plugin that hangs delays only its own dependants, and those at most by that
   * timeout. A plugin whose dependency is missing or disabled is skipped with a `skipped` event
   * naming the reason; one that fails gets a `load-failed` event. Resolves when every plugin has
   * activated or failed.
   */
  start(): Promise<StartReport> {
    return this.activation.start();
  }

  /** An activated plugin. */
  plugin(id: string): ActivePlugin | undefined {
    return this.running.get(id);
  }

  /** Ids of the activated (or still loading) plugins, in activation order. */
  activePlugins(): string[] {
    return this.running.ids();
  }

  /** The frame of a sandboxed plugin (hidden until the launcher shows it). */
  frame(id: string): HTMLIFrameElement | undefined {
    return this.running.get(id)?.frame;
  }

  /** The bridge methods of this host (name, permission, direct), for docs and the harness. */
  methods(): readonly Pick<BridgeMethod, 'name' | 'permission' | 'direct'>[] {
    return [...this.index.values()].map(({ name, permission, direct }) => ({ name, permission, ...(direct ? { direct } : {}) }));
  }

  /**
   * Activates one installed plugin by id (after an install, to retry one that failed or was
   * skipped, or to reload it).
   *
   * @throws Error naming the reason when the plugin cannot be activated: not installed or not
   *   enabled, no `entry.frontend`, a required dependency that is not active (also reported with a
   *   `skipped` event), or a frame that failed to connect (also reported with `load-failed`).
   */
  activate(id: string): Promise<void> {
    return this.activation.activate(id);
  }

  /**
   * Deactivates a plugin: its methods, hooks, dynamic menu items, overlays and streams go, its
   * frame (or inline content) is removed. A theme override it applied stays (specification).
   */
  deactivate(id: string): void {
    this.running.deactivate(id);
  }

  /**
   * Opens another page of an active plugin (a settings page, a menu item's page) in a new
   * sandboxed frame inside `container`, connected as that plugin. Methods that hand functions
   * to the host (`registerMethod`, `registerHook`, `addMenuItem`, `proxyFetchStream`) answer
   * only the plugin's main page, which keeps them; on other pages they are unknown.
   *
   * @returns the frame and `close()`, which disconnects and removes it.
   */
  openPage(pluginId: string, path: string, container: HTMLElement): Promise<{ frame: HTMLIFrameElement; close(): void }> {
    return this.pages.open(pluginId, path, container);
  }

  /**
   * Deactivates and activates again (a frame that stopped answering, a new version, a dev plugin
   * rebuilt): the old frame is removed and the plugin gets a NEW frame, created once with its final
   * document (no frame is navigated twice). Reloads of one plugin run one after another, and a
   * reload asked for while one waits joins it, so quick successive rebuilds leave exactly one frame.
   */
  reload(id: string): Promise<void> {
    const queued = this.reloads.get(id);
    if (queued?.waiting) return queued.done;
    const entry = { waiting: true, done: Promise.resolve() };
    entry.done = (queued?.done ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        entry.waiting = false;
        this.unload(id);
        await this.activate(id);
      })
      .finally(() => {
        if (this.reloads.get(id) === entry) this.reloads.delete(id);
      });
    this.reloads.set(id, entry);
    return entry.done;
  }

  /**
   * Deactivates a plugin and removes its contributed sidebar items too: for a plugin that is gone
   * (uninstalled, or a dev plugin whose dev server stopped), where `deactivate` would leave them.
   */
  unload(id: string): void {
    this.deactivate(id);
    this.services.menu.remove(id, 'everything');
  }

  /** Stops every plugin (the launcher is closing or restarting). */
  dispose(): void {
    for (const id of this.running.ids().reverse()) this.deactivate(id);
  }

  /**
   * Runs a hookable launcher method through the plugins' hooks (onion order), then `implementation`
   * unless a hook prevented it.
   */
  runHookable(method: string, args: readonly unknown[], implementation: (...args: unknown[]) => unknown): Promise<unknown> {
    return this.services.hooks.run(method, args, implementation);
  }

  /**
   * Calls a method a plugin registered, as the launcher (for example forwarding `file-drop` paths
   * to a plugin that registered a handler for them).
   *
   * @throws Error with the `callPlugin` rejection text when the plugin or method is not there.
   */
  callPluginMethod(pluginId: string, method: string, args: readonly unknown[]): Promise<unknown> {
    return callPluginMethod({ running: this.running, installed: this.installed, services: this.services }, pluginId, method, args);
  }

  /**
   * Delivers an event to a plugin's `on(name)` listeners; to a plugin still loading, once it has
   * connected. Nothing happens for a plugin that is not running.
   *
   * @throws Error when the plugin fails to connect before the event could be delivered.
   */
  async deliverEvent(pluginId: string, name: string, payload: unknown): Promise<void> {
    await this.running.get(pluginId)?.guest.deliverEvent(name, payload);
  }

  /** Methods registered by a plugin (harness, tests). */
  registeredMethods(pluginId: string): string[] {
    return this.services.methods.list(pluginId);
  }

  /** The plugin that owns the shared window's API (the last inline plugin loaded). */
  get inlineOwnerId(): string | undefined {
    return this.activation.inlineOwnerId;
  }
}
