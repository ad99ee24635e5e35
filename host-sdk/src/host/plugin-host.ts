import type { Connection } from 'penpal';
import {
  parseManifest,
  planActivation,
  pluginMethodUnavailable,
  wireErrorToError,
  type GuestMethods,
  type HookOutcome,
  type PluginManifest,
  type SkippedPlugin,
  type WireResult,
} from '../core/index.js';
import { BRIDGE_METHODS } from '../bridge/bridge-methods.js';
import type { BridgeMethod } from '../bridge/bridge-method.js';
import { indexMethods } from '../bridge/dispatch.js';
import { destroyOverlaysOf } from '../bridge/methods/overlay-methods.js';
import { buildPluginDocument, mountInlinePlugin, type InlineMount } from '../frame/index.js';
import { BackendClient, BridgeFailure } from './backend-client.js';
import { PluginErrorReporter } from './error-reporter.js';
import { HookRegistry, type HookableMethod } from './hook-registry.js';
import { openPluginFrame, type GuestMethodMap } from './frame-connection.js';
import { dependenciesSettled, skipMessage, unmetDependency, type ListedPlugin } from './dependency-gate.js';
import { hostMethodsFor, type GuestRuntimeError } from './host-methods.js';
import type { ActivePlugin, HostServices, PluginRuntimeState } from './host-services.js';
import { createInlineGuest, releaseInlineApi } from './inline-guest.js';
import { MenuRegistry } from './menu-registry.js';
import { MethodRegistry } from './method-registry.js';
import { OwnedIds } from './owned-ids.js';
import { guestWhenConnected } from './pending-guest.js';
import { ThemeController } from './theme-controller.js';
import type { PluginUiAdapter } from './ui-adapter.js';
import { withTimeout } from './with-timeout.js';

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

/** Something the host reports to the launcher. */
export type PluginHostEvent =
  | { readonly type: 'activated'; readonly pluginId: string }
  | { readonly type: 'skipped'; readonly pluginId: string; readonly message: string }
  | { readonly type: 'load-failed'; readonly pluginId: string; readonly message: string }
  /**
   * An error in the plugin: `message` is the error's (`TypeError: x is not a function`); `source`
   * says where, `stack` is its stack when the engine gave one, and `hidden` marks an uncaught error
   * whose text the engine hid (WebKit in sandboxed frames). Nothing but the error type leaves the
   * machine in telemetry.
   */
  | { readonly type: 'runtime-error'; readonly pluginId: string; readonly message: string; readonly source?: string; readonly stack?: string; readonly hidden?: true }
  | { readonly type: 'unresponsive'; readonly pluginId: string }
  | { readonly type: 'responsive'; readonly pluginId: string }
  | { readonly type: 'deactivated'; readonly pluginId: string };

/** What {@link PluginHost.start} did. */
export interface StartReport {
  readonly activated: readonly string[];
  readonly skipped: readonly SkippedPlugin[];
  readonly failed: readonly { readonly pluginId: string; readonly message: string }[];
}

interface RunningPlugin extends Omit<ActivePlugin, 'guest' | 'state'> {
  /** Secondary pages opened with `openPage`, closed with the plugin. */
  readonly pages: Set<() => void>;
  guest: GuestMethods;
  state: PluginRuntimeState;
  /** Settles `ready`. */
  settle(active: boolean): void;
  frame?: HTMLIFrameElement;
  inline?: InlineMount;
  connection?: Connection<GuestMethodMap>;
  heartbeat?: ReturnType<typeof setInterval>;
}

/**
 * The plugin host of a launcher page: activates the backend's active plugins in dependency
 * order, each in a sandboxed frame (or inline when its manifest asks), connects every frame
 * with its own bridge connection, and answers the bridge from one permission-gated method table.
 *
 * @example
 * ```ts
 * const host = new PluginHost({ baseUrl: location.origin, token, ui, frameContainer, guestRuntime });
 * host.on((event) => console.info('[plugins]', event));
 * const report = await host.start();
 * ```
 */
export class PluginHost {
  private readonly document: Document;
  private readonly services: HostServices;
  private readonly running = new Map<string, RunningPlugin>();
  private readonly listeners = new Set<(event: PluginHostEvent) => void>();
  private readonly index;
  /** The table for a plugin's secondary pages: what registers functions belongs to its main page. */
  private readonly pageIndex;
  private readonly reporter: PluginErrorReporter;
  private readonly backend: BackendClient;
  private installed = new Map<string, ListedPlugin>();
  private guestRuntimeSource: Promise<string> | undefined;
  private inlineOwner: string | undefined;
  /** Inline plugins mount one after another, in activation order. */
  private inlineQueue: Promise<void> = Promise.resolve();

  constructor(private readonly options: PluginHostOptions) {
    this.document = options.document ?? document;
    this.backend = new BackendClient({ baseUrl: options.baseUrl, token: options.token, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.reporter = new PluginErrorReporter(this.backend);
    this.index = indexMethods([...BRIDGE_METHODS, ...(options.extraMethods ?? [])]);
    this.pageIndex = indexMethods([...this.index.values()].filter((method) => !MAIN_PAGE_ONLY.has(method.name)));
    const callTimeoutMs = options.callTimeoutMs ?? 30_000;
    const hooks = new HookRegistry(
      options.hookableMethods ?? [],
      (registration, invocation) => this.runHookLayer(registration.pluginId, { ...invocation, hookId: registration.hookId }, callTimeoutMs),
      // A handler that threw was reported by its frame, with its stack; what is left is a layer that
      // timed out or whose plugin was not answering.
      (registration, error) => {
        if (!(error instanceof BridgeFailure)) this.emit({ type: 'runtime-error', pluginId: registration.pluginId, message: `Hook failed: ${error instanceof Error ? error.message : String(error)}` });
      },
      // Activation order decides the layers, so the onion does not depend on which frame answered first.
      (pluginId) => [...this.running.keys()].indexOf(pluginId),
    );
    this.services = {
      backend: this.backend,
      ui: options.ui,
      methods: new MethodRegistry(),
      hooks,
      menu: new MenuRegistry(options.ui),
      theme: new ThemeController(this.document),
      overlays: new OwnedIds(),
      streams: new OwnedIds<AbortController>(),
      allowedLauncherRoutes: options.allowedLauncherRoutes ?? [],
      active: (id) => this.running.get(id),
      isInstalled: (id) => this.installed.has(id),
      timeouts: { crossPluginCallMs: callTimeoutMs },
    };
  }

  /** Listens to host events; returns the function that stops listening. */
  on(listener: (event: PluginHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
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
  async start(): Promise<StartReport> {
    await this.refreshInstalled();
    const failed: { pluginId: string; message: string }[] = [];
    const read = await Promise.all(
      [...this.installed.values()]
        .filter((entry) => entry.status === 'active')
        .map(async (plugin) => {
          try {
            return await this.readManifest(plugin.id);
          } catch (error) {
            failed.push({ pluginId: plugin.id, message: messageOf(error) });
            this.emit({ type: 'load-failed', pluginId: plugin.id, message: messageOf(error) });
            return undefined;
          }
        }),
    );
    const candidates = read.filter((manifest): manifest is PluginManifest => manifest?.entry?.frontend !== undefined);
    const plan = planActivation(candidates.map(({ id, version, dependencies }) => ({ id, version, dependencies })));
    const skipped = plan.skipped.map((entry) => ({ ...entry, message: skipMessage(entry, this.installed) }));
    for (const entry of skipped) {
      console.warn(`[plugins] ${entry.message}`);
      this.emit({ type: 'skipped', pluginId: entry.id, message: entry.message });
    }
    // Each activation registers its plugin before its first await, so `running` (and with it the
    // order of hook layers) follows the plan even though the frames load in parallel.
    const byId = new Map(candidates.map((manifest) => [manifest.id, manifest]));
    const outcomes = plan.order.map((id) => this.activateManifest(byId.get(id) as PluginManifest));
    const activated: string[] = [];
    (await Promise.allSettled(outcomes)).forEach((outcome, index) => {
      const id = plan.order[index] as string;
      if (outcome.status === 'fulfilled') activated.push(id);
      else failed.push({ pluginId: id, message: messageOf(outcome.reason) });
    });
    return { activated, skipped, failed };
  }

  /** An activated plugin. */
  plugin(id: string): ActivePlugin | undefined {
    return this.running.get(id);
  }

  /** Ids of the activated (or still loading) plugins, in activation order. */
  activePlugins(): string[] {
    return [...this.running.keys()];
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
  async activate(id: string): Promise<void> {
    if (this.running.has(id)) return;
    await this.refreshInstalled();
    const listed = this.installed.get(id);
    if (!listed) throw new Error(`${id} is not installed`);
    if (listed.status !== 'active') throw new Error(`${id} is not enabled (status ${listed.status})`);
    const manifest = await this.readManifest(id);
    const missing = unmetDependency(manifest, this.running, this.installed);
    if (missing) {
      this.emit({ type: 'skipped', pluginId: id, message: missing });
      throw new Error(missing);
    }
    await this.activateManifest(manifest);
  }

  /**
   * Deactivates a plugin: its methods, hooks, dynamic menu items, overlays and streams go, its
   * frame (or inline content) is removed. A theme override it applied stays (specification).
   */
  deactivate(id: string): void {
    const plugin = this.running.get(id);
    if (!plugin) return;
    clearInterval(plugin.heartbeat);
    this.forgetDocumentState(id);
    destroyOverlaysOf(this.services, id);
    for (const close of [...plugin.pages]) close();
    plugin.connection?.destroy();
    plugin.frame?.remove();
    plugin.inline?.unmount();
    if (plugin.mode === 'inline') releaseInlineApi(this.document.defaultView ?? window, id);
    this.services.theme.removeTheme(id);
    this.services.theme.removeFontLinks(id);
    this.running.delete(id);
    this.emit({ type: 'deactivated', pluginId: id });
  }

  /**
   * Opens another page of an active plugin (a settings page, a menu item's page) in a new
   * sandboxed frame inside `container`, connected as that plugin. Methods that hand functions
   * to the host (`registerMethod`, `registerHook`, `addMenuItem`, `proxyFetchStream`) answer
   * only the plugin's main page, which keeps them; on other pages they are unknown.
   *
   * @returns the frame and `close()`, which disconnects and removes it.
   */
  async openPage(pluginId: string, path: string, container: HTMLElement): Promise<{ frame: HTMLIFrameElement; close(): void }> {
    const plugin = this.running.get(pluginId);
    if (!plugin) throw new Error(`${pluginId} is not active`);
    const filesBase = this.filesBase(pluginId);
    const html = await this.readPluginText(pluginId, path);
    const srcdoc = buildPluginDocument({ html, pluginFilesBase: filesBase, entryPath: path, guestRuntime: await this.runtimeSource(), mode: 'sandbox', ...(this.options.cspNonce ? { cspNonce: this.options.cspNonce } : {}) });
    const methods = hostMethodsFor({ id: pluginId, manifest: plugin.manifest }, filesBase, this.services, this.pageIndex, this.reportsFor(plugin, () => {}));
    const { frame, connection } = openPluginFrame({ document: this.document, container, srcdoc, title: `${plugin.name}: ${path}`, pluginId, methods });
    const close = (): void => {
      plugin.pages.delete(close);
      connection.destroy();
      frame.remove();
    };
    plugin.pages.add(close);
    return { frame, close };
  }

  /** Deactivates and activates again (a frame that stopped answering, or a new version). */
  async reload(id: string): Promise<void> {
    this.deactivate(id);
    this.services.menu.remove(id, 'everything');
    await this.activate(id);
  }

  /** Stops every plugin (the launcher is closing or restarting). */
  dispose(): void {
    for (const id of [...this.running.keys()].reverse()) this.deactivate(id);
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
  async callPluginMethod(pluginId: string, method: string, args: readonly unknown[]): Promise<unknown> {
    const loading = this.running.get(pluginId);
    if (loading?.state === 'loading') await loading.ready;
    const target = this.running.get(pluginId);
    const reason = !this.installed.has(pluginId) ? 'not-installed' : !target || target.state !== 'active' ? 'inactive' : !this.services.methods.has(pluginId, method) ? 'no-such-method' : undefined;
    if (reason !== undefined || !target) throw wireErrorToError(pluginMethodUnavailable(pluginId, method, reason ?? 'inactive'));
    const result = await withTimeout(target.guest.invokeMethod(method, [...args]), this.services.timeouts.crossPluginCallMs, `${pluginId} did not answer ${method}`);
    if (!result.ok) throw wireErrorToError(result.error);
    return result.value;
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

  private emit(event: PluginHostEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('[plugins] A host event listener failed', error);
      }
    }
  }

  private filesBase(id: string): string {
    return this.backend.url(`/api/plugins/${encodeURIComponent(id)}/files`);
  }

  private async readManifest(id: string): Promise<PluginManifest> {
    const response = await this.backend.request(`/api/plugins/${encodeURIComponent(id)}/files/manifest.json`);
    if (!response.ok) throw new Error(`The manifest of ${id} could not be read (${response.status})`);
    const result = parseManifest(new Uint8Array(await response.arrayBuffer()));
    if (!result.ok) throw new Error(`The manifest of ${id} is invalid: ${result.problems.map((problem) => problem.message).join('; ')}`);
    if (result.manifest.id !== id) throw new Error(`The manifest of ${id} names another plugin (${result.manifest.id})`);
    return result.manifest;
  }

  private async readPluginText(id: string, path: string): Promise<string> {
    const response = await this.backend.request(`/api/plugins/${encodeURIComponent(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`);
    if (!response.ok) throw new Error(`${path} of ${id} could not be loaded (${response.status})`);
    return response.text();
  }

  private runtimeSource(): Promise<string> {
    const source = this.options.guestRuntime;
    this.guestRuntimeSource ??= typeof source === 'string' ? Promise.resolve(source) : source();
    return this.guestRuntimeSource;
  }

  private async refreshInstalled(): Promise<void> {
    const listed = await this.backend.json<ListedPlugin[]>('/api/plugins/');
    this.installed = new Map(listed.map((plugin) => [plugin.id, plugin]));
  }

  /** Registers a loading plugin at once (keeping activation order), then loads it. */
  private async activateManifest(manifest: PluginManifest): Promise<void> {
    const id = manifest.id;
    const frontend = manifest.entry?.frontend;
    if (frontend === undefined) throw new Error(`${id} has no entry.frontend; only such plugins are activated`);
    let settle: (active: boolean) => void = () => {};
    const ready = new Promise<boolean>((resolve) => (settle = resolve));
    let connected: (guest: GuestMethods) => void = () => {};
    let notConnected: (error: Error) => void = () => {};
    const guest = new Promise<GuestMethods>((resolve, reject) => {
      connected = resolve;
      notConnected = reject;
    });
    guest.catch(() => undefined);
    const plugin: RunningPlugin = { id, name: manifest.name, manifest, mode: manifest.render === 'inline' ? 'inline' : 'sandbox', state: 'loading', guest: guestWhenConnected(guest), ready, settle, pages: new Set() };
    this.running.set(id, plugin);
    // Inline plugins take their turn now, in activation order, whatever their files' load times.
    const inlineTurn = plugin.mode === 'inline' ? this.takeInlineTurn() : undefined;
    try {
      if (manifest.entry?.theme !== undefined) this.services.theme.injectTheme(id, await this.readPluginText(id, manifest.entry.theme));
      if (manifest.contributes?.fontLinks) {
        // A package path is served from the plugin's files; anything else must be an https URL.
        const filesBase = this.filesBase(id);
        const links = manifest.contributes.fontLinks.map((link) => (/^https:/i.test(link) ? link : `${filesBase}/${link.split('/').map(encodeURIComponent).join('/')}`));
        this.services.theme.injectFontLinks(id, links, new URL(filesBase).origin);
      }
      const html = await this.readPluginText(id, frontend);
      connected(inlineTurn ? await this.activateInline(plugin, html, frontend, inlineTurn.previous) : await this.activateSandboxed(plugin, html, frontend));
      if (this.running.get(id) !== plugin) throw new Error(`${id} was stopped while it loaded`);
      plugin.state = 'active';
      settle(true);
      this.addContributedMenuItems(manifest);
      this.emit({ type: 'activated', pluginId: id });
      inlineTurn?.done();
    } catch (error) {
      inlineTurn?.done();
      const message = messageOf(error);
      notConnected(new Error(`${id} is not running: ${message}`));
      plugin.state = 'failed';
      settle(false);
      if (this.running.get(id) === plugin) {
        this.reporter.report(id, manifest.version, 'plugin_load_failed');
        this.emit({ type: 'load-failed', pluginId: id, message });
        this.deactivate(id);
      }
      throw error;
    }
  }

  private reportsFor(plugin: RunningPlugin, connected: () => Promise<void> | void) {
    return {
      runtimeError: (error: GuestRuntimeError) => {
        // Telemetry gets the error type only: the message and stack stay on this machine.
        this.reporter.report(plugin.id, plugin.manifest.version, 'plugin_runtime_error');
        this.emit({ type: 'runtime-error', pluginId: plugin.id, ...error });
      },
      loadFailure: (resource: string) => {
        this.reporter.report(plugin.id, plugin.manifest.version, 'plugin_load_failed');
        this.emit({ type: 'load-failed', pluginId: plugin.id, message: `A resource failed to load: ${resource}` });
      },
      connected,
    };
  }

  /** Loads a plugin's frame, connects it, and resolves with its guest once it said hello. */
  private async activateSandboxed(plugin: RunningPlugin, html: string, entryPath: string): Promise<GuestMethods> {
    const id = plugin.id;
    const filesBase = this.filesBase(id);
    const srcdoc = buildPluginDocument({ html, pluginFilesBase: filesBase, entryPath, guestRuntime: await this.runtimeSource(), mode: 'sandbox', ...(this.options.cspNonce ? { cspNonce: this.options.cspNonce } : {}) });
    if (this.running.get(id) !== plugin) throw new Error(`${id} was stopped while it loaded`);
    let helloCount = 0;
    let saidHello: () => void = () => {};
    const helloReceived = new Promise<void>((resolve) => (saidHello = resolve));
    const dependencies = dependenciesSettled(plugin.manifest, this.running);
    const methods = hostMethodsFor({ id, manifest: plugin.manifest }, filesBase, this.services, this.index, this.reportsFor(plugin, () => {
      // A second hello comes from a reloaded document: what the old one registered is gone with it.
      if (++helloCount > 1) this.forgetDocumentState(id);
      saidHello();
      return dependencies;
    }));
    const { frame, connection } = openPluginFrame({ document: this.document, container: containerFor(this.options.frameContainer, id), srcdoc, title: plugin.name, pluginId: id, hidden: true, methods });
    plugin.frame = frame;
    plugin.connection = connection;
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    const [remote] = await withTimeout(Promise.all([connection.promise, helloReceived]), timeoutMs, `${plugin.name} did not connect within ${timeoutMs / 1000} s: its page may be broken or stuck before the plugin API loaded`);
    await dependencies;
    this.startHeartbeat(plugin);
    return remote as unknown as GuestMethods;
  }

  /** Drops what a plugin's document registered (methods, hooks, dynamic menu items, streams): its functions go with it. */
  private forgetDocumentState(id: string): void {
    this.services.methods.removeAll(id);
    this.services.hooks.removeAll(id);
    this.services.menu.remove(id, 'dynamic');
    for (const stream of this.services.streams.idsOf(id)) {
      this.services.streams.get(id, stream)?.abort();
      this.services.streams.delete(stream);
    }
  }

  /**
   * Mounts an inline plugin after the plugins it depends on and after the inline plugins before it,
   * so the shared window's API belongs to the last inline plugin in activation order.
   */
  /** A place in the line of inline mounts: wait for `previous`, call `done` when mounted (or failed). */
  private takeInlineTurn(): { previous: Promise<void>; done: () => void } {
    const previous = this.inlineQueue;
    let done: () => void = () => {};
    this.inlineQueue = new Promise<void>((resolve) => (done = resolve));
    return { previous, done };
  }

  private async activateInline(plugin: RunningPlugin, html: string, entryPath: string, previousInline: Promise<void>): Promise<GuestMethods> {
    const id = plugin.id;
    if (!this.options.inlineContainer) throw new Error(`${id} renders inline, but the launcher gave the host no inlineContainer`);
    const container = containerFor(this.options.inlineContainer, id);
    await previousInline;
    await dependenciesSettled(plugin.manifest, this.running);
    if (this.running.get(id) !== plugin) throw new Error(`${id} was stopped while it loaded`);
    const methods = hostMethodsFor({ id, manifest: plugin.manifest }, null, this.services, this.index, this.reportsFor(plugin, () => {}));
    // The shared window's API belongs to the last inline plugin loaded (specification).
    this.inlineOwner = id;
    const guest = createInlineGuest(this.document.defaultView ?? window, methods, id);
    plugin.inline = mountInlinePlugin(container, {
      html,
      pluginFilesBase: this.filesBase(id),
      entryPath,
      pluginId: id,
      onLoadFailed: (detail) => this.reportsFor(plugin, () => {}).loadFailure(detail.resource),
      ...(this.options.cspNonce ? { cspNonce: this.options.cspNonce } : {}),
    });
    await plugin.inline.ready;
    return guest;
  }

  private addContributedMenuItems(manifest: PluginManifest): void {
    (manifest.contributes?.menuItems ?? []).forEach((item, index) => {
      const route = `/plugins/${manifest.id}/${item.path}`;
      this.services.menu.add({
        pluginId: manifest.id,
        id: `menu-${index}`,
        label: item.label,
        path: item.path,
        route,
        dynamic: false,
        order: index,
        ...(item.icon !== undefined ? { icon: item.icon } : {}),
        activate: () => this.options.ui.navigate(route, manifest.id),
      });
    });
  }

  private startHeartbeat(plugin: RunningPlugin): void {
    const interval = this.options.heartbeatIntervalMs ?? 5000;
    const timeout = this.options.heartbeatTimeoutMs ?? 3000;
    let waiting = false;
    plugin.heartbeat = setInterval(() => {
      if (waiting) return;
      waiting = true;
      withTimeout(plugin.guest.ping(), timeout, 'no answer')
        .then(() => {
          if (plugin.state === 'unresponsive') {
            plugin.state = 'active';
            this.emit({ type: 'responsive', pluginId: plugin.id });
          }
        })
        .catch(() => {
          if (plugin.state !== 'unresponsive' && this.running.get(plugin.id) === plugin) {
            plugin.state = 'unresponsive';
            this.reporter.report(plugin.id, plugin.manifest.version, 'plugin_runtime_error');
            this.emit({ type: 'unresponsive', pluginId: plugin.id });
          }
        })
        .finally(() => {
          waiting = false;
        });
    }, interval);
  }

  private async runHookLayer(pluginId: string, invocation: { invocationId: string; method: string; args: readonly unknown[]; hookId: string }, timeoutMs: number): Promise<HookOutcome> {
    const plugin = this.running.get(pluginId);
    if (!plugin || plugin.state !== 'active') throw new Error(`${pluginId} is not answering`);
    const result: WireResult<HookOutcome> = await withTimeout(plugin.guest.runHook(invocation), timeoutMs, `${pluginId}'s hook did not finish within ${timeoutMs} ms`);
    if (!result.ok) throw new BridgeFailure(result.error);
    return result.value;
  }

  /** The plugin that owns the shared window's API (the last inline plugin loaded). */
  get inlineOwnerId(): string | undefined {
    return this.inlineOwner;
  }
}

/** Direct members that leave a function with the host: only a plugin's main page may use them. */
const MAIN_PAGE_ONLY: ReadonlySet<string> = new Set(['registerMethod', 'registerHook', 'addMenuItem', 'proxyFetchStream']);

function containerFor(option: HTMLElement | ((pluginId: string) => HTMLElement), pluginId: string): HTMLElement {
  return typeof option === 'function' ? option(pluginId) : option;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
