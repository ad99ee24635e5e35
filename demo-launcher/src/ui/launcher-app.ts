import { LitElement, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import {
  PluginHost,
  followDevPlugins,
  followFrameHeights,
  hslTripletToHex,
  type DevPluginEvent,
  type DevPluginEvents,
  type PluginHostEvent,
} from '@plughost/host-sdk';
import { describeError, type PluginInfo } from '@plughost/host-sdk/core';
import {
  PluginUpdates,
  createLauncherUi,
  createOverlayLayer,
  type LauncherBackendSource,
  type LauncherSettingsPage,
  type LauncherSettingsSavedDetail,
  type ManagedPlugin,
  type PluginConsentDialog,
  type PluginDownloadCenter,
  type PluginFrameStatus,
  type PluginInstallDialog,
  type PluginSidebar,
  type PluginStore,
  type PluginToasts,
} from '@plughost/web-components';
import { bootValues } from './boot.js';
import { renderBuildError, type BuildError } from './build-error.js';
import { LauncherBackend } from './launcher-backend.js';
import { currentRoute, goTo, parseRoute, type LauncherRoute } from './routes.js';
import { describeStartupFailure } from './startup-failure.js';
import { GameLibrary } from './library/game-library.js';
import { renderInstancePage } from './library/instance-view.js';
import { LibraryBackend } from './library/library-backend.js';
import { renderLibrary } from './library/library-view.js';

/** Launcher routes plugins may reach through `callBackend` (decisions section 2). */
const ALLOWED_LAUNCHER_ROUTES = ['/instance', '/resources/search', '/settings', '/resource-download/start'];
const PACKAGE_FILE = /\.(plugpkg|zip)$/i;

/**
 * The demo launcher: a sidebar with built-in pages and plugin menu items, plugin pages in
 * sandboxed frames, the launcher's Settings page (telemetry, store sources, update interval) with
 * plugin settings tabs, downloads, the plugin manager with install by upload or drag and drop and
 * plugin updates, the store (on the launcher's sources, with fallback), and a restart action. Renders
 * into its own light DOM so plugin frames, created once by the host, are never moved.
 *
 * In development mode it also follows dev plugins (`pluginctl dev`): a rebuild replaces that
 * plugin's frame with a new one, a failed build shows its output above the plugin's page (and in a
 * toast) while the old frame keeps running, and dev servers that start or stop add or remove
 * their plugins without a reload.
 */
export class LauncherApp extends LitElement {
  private readonly backend: LauncherBackend;
  private host: PluginHost | undefined;
  private route: LauncherRoute = parseRoute(currentRoute());
  private plugins: ManagedPlugin[] = [];
  private frameStatus = new Map<string, { status: PluginFrameStatus; message: string }>();
  private restartNeeded = false;
  private busyIds: string[] = [];
  private startupError = '';
  private openedPage: { pluginId: string; path: string; close(): void } | undefined;
  private openedSettings: { pluginId: string; close(): void } | undefined;
  /** Opened pages are numbered so a page whose opening was overtaken by another is closed at once. */
  private pageRequest = 0;
  private settingsRequest = 0;
  /**
   * One object for the download centre and the settings page: a new one would restart the
   * centre's event stream and reload the settings on every render.
   */
  private readonly backendSource: LauncherBackendSource;
  /** The update flow shared by the plugin manager and the store, so both show the same state. */
  private readonly updates: PluginUpdates;
  /** The rebuild notices of dev plugins (development mode only). */
  private devEvents: DevPluginEvents | undefined;
  /** The last failed build of each dev plugin, until the next successful one or a dismissal. */
  private buildErrors = new Map<string, BuildError>();
  /** Dev plugin list changes are applied one at a time, in order. */
  private devSync: Promise<void> = Promise.resolve();
  /** The sidebar is shown over the page (narrow windows, where it is collapsed otherwise). */
  private navOpen = false;
  /** Stops sizing the frames of secondary plugin pages to their content. */
  private stopHeights: (() => void) | undefined;
  /** The game library: instances, launches through the plugins' hooks, last launch logs. */
  private readonly library: GameLibrary;

  constructor() {
    super();
    const boot = bootValues();
    // The backend may live at another origin than this page (a desktop app's page, a dev server).
    this.backend = new LauncherBackend(boot.backendUrl, boot.apiToken);
    // Through the client's logging fetch: the web components' failed calls are logged as [API] lines too.
    this.backendSource = this.backend.source;
    this.library = new GameLibrary(this, new LibraryBackend(this.backend.client));
    // After "Restart to apply" the element has asked the backend to restart; the page reloads.
    this.updates = new PluginUpdates({ source: this.backendSource });
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onRouteChange);
    window.addEventListener('dragover', this.onDragOver);
    window.addEventListener('drop', this.onDrop);
    window.addEventListener('keydown', this.onKeydown);
    void this.start();
  }

  override disconnectedCallback(): void {
    window.removeEventListener('hashchange', this.onRouteChange);
    window.removeEventListener('dragover', this.onDragOver);
    window.removeEventListener('drop', this.onDrop);
    window.removeEventListener('keydown', this.onKeydown);
    this.stopHeights?.();
    this.devEvents?.close();
    this.host?.dispose();
    super.disconnectedCallback();
  }

  private get toasts(): PluginToasts {
    return this.querySelector('plugin-toasts') as PluginToasts;
  }

  private pluginName(id: string): string {
    return this.plugins.find((plugin) => plugin.id === id)?.name ?? id;
  }

  /** The version of each plugin the host runs now: the manager shows it while a restart is pending. */
  private loadedVersions(): Record<string, string> {
    const host = this.host;
    if (!host) return {};
    return Object.fromEntries(
      host.activePlugins().flatMap((id) => {
        const version = host.plugin(id)?.manifest.version;
        return version === undefined ? [] : [[id, version]];
      }),
    );
  }

  /** A toast's source: the plugin by its display name, never only its id. */
  private toastSource(pluginId: string): { pluginId: string; pluginName: string } {
    return { pluginId, pluginName: this.pluginName(pluginId) };
  }

  /** Plugins whose frontend runs in a frame once the host activates them. */
  private framedPlugins(): ManagedPlugin[] {
    return this.plugins.filter((plugin) => plugin.status === 'active' && plugin.manifest?.entry?.frontend !== undefined && plugin.manifest.render !== 'inline');
  }

  private async start(): Promise<void> {
    try {
      this.plugins = await this.backend.plugins();
    } catch (error) {
      this.startupError = await describeStartupFailure(error, this.backend.baseUrl, location.origin);
      this.requestUpdate();
      return;
    }
    // The backend answers: the library next (a backend that does not is explained once, above).
    void this.library.load();
    if (this.route.page === 'instance') void this.library.loadLastLaunch(this.route.instanceId);
    this.requestUpdate();
    await this.updateComplete;
    // Main pages and settings pages are sized by their elements; other pages open here.
    this.stopHeights = followFrameHeights(this.querySelector('#plugin-secondary') as HTMLElement, window);
    const ui = createLauncherUi({
      toasts: this.toasts,
      consent: this.querySelector('plugin-consent-dialog') as PluginConsentDialog,
      sidebar: this.querySelector('plugin-sidebar') as PluginSidebar,
      downloads: this.querySelector('plugin-download-center') as PluginDownloadCenter,
      overlays: createOverlayLayer({ container: this.querySelector('#overlay-layer') as HTMLElement, filesBase: (id) => this.backend.filesBase(id) }),
      navigate: (route) => goTo(route),
      openPluginSettings: (pluginId) => {
        goTo('/settings');
        const page = this.querySelector('launcher-settings-page') as LauncherSettingsPage | null;
        if (page) page.tab = 'plugins';
        void this.updateComplete.then(() => this.settingsTab()?.openFor(pluginId));
      },
      // The current primary colour, theme overrides included.
      themeColor: () => hslTripletToHex(getComputedStyle(document.documentElement).getPropertyValue('--primary')) ?? null,
      pluginName: (id) => this.pluginName(id),
    });
    this.host = new PluginHost({
      baseUrl: this.backend.baseUrl,
      token: this.backend.token,
      ui,
      frameContainer: (id) => this.querySelector(`plugin-frame[plugin-id="${CSS.escape(id)}"]`) ?? (this.querySelector('#plugin-pages') as HTMLElement),
      inlineContainer: this.querySelector('#inline-plugins') as HTMLElement,
      guestRuntime: () => fetch('/ui/guest-runtime.js').then((response) => response.text()),
      allowedLauncherRoutes: ALLOWED_LAUNCHER_ROUTES,
      hookableMethods: [{ name: 'launchGame', description: 'Starts the selected game instance; hooks may change its options or prevent it.' }],
    });
    this.host.on((event) => this.onHostEvent(event));
    const report = await this.host.start();
    for (const id of report.activated) this.setFrameStatus(id, 'ready', '');
    (this.querySelector('plugin-sidebar') as PluginSidebar).commands = this.plugins.flatMap((plugin) =>
      (plugin.status === 'active' ? (plugin.manifest?.contributes?.commands ?? []) : []).map((command) => ({
        pluginId: plugin.id,
        id: command.id,
        title: command.title,
        ...(command.shortcut ? { shortcut: command.shortcut } : {}),
        ...(command.method ? { method: command.method } : {}),
      })),
    );
    this.requestUpdate();
    this.showRoute();
    if (bootValues().devPlugins) this.followDevPlugins();
  }

  /** Follows the backend's rebuild notices of dev plugins (development mode). */
  private followDevPlugins(): void {
    this.devEvents = followDevPlugins({
      baseUrl: this.backend.baseUrl,
      token: this.backend.token,
      onEvent: (event) => this.onDevEvent(event),
      // Events may have been missed while the stream was down: read the list again.
      onState: (state) => {
        if (state.kind === 'open' && state.reconnected) this.queueDevSync();
      },
    });
  }

  private onDevEvent(event: DevPluginEvent): void {
    switch (event.type) {
      case 'rebuilt':
        // A new frame for the new build (decisions 11: no frame loads twice); the error is over.
        this.buildErrors.delete(event.pluginId);
        this.requestUpdate();
        // Also a plugin whose earlier build could not load: the new one may.
        if (this.host?.plugin(event.pluginId) || this.plugins.some((plugin) => plugin.id === event.pluginId && plugin.status === 'active')) {
          this.retry(event.pluginId);
        }
        break;
      case 'build-failed':
        // The running frame stays: the previous build keeps working while the author fixes this one.
        this.buildErrors.set(event.pluginId, { pluginId: event.pluginId, output: event.output, at: event.at });
        this.requestUpdate();
        this.toasts.show(
          `${this.pluginName(event.pluginId)}: the build failed; the previous version keeps running.`,
          'error',
          this.toastSource(event.pluginId),
        );
        break;
      case 'list-changed':
        this.queueDevSync();
        break;
      default:
        break;
    }
  }

  private queueDevSync(): void {
    this.devSync = this.devSync.then(() => this.syncDevPlugins()).catch((error: unknown) => console.warn('[plugins] reading the dev plugins failed', error));
  }

  /**
   * Reads the plugin list again and brings the running plugins in line with what changed about dev
   * plugins: a new dev plugin is activated, one whose dev server stopped is unloaded (an installed
   * plugin of the same id, listed again, is loaded in its place), one that became loadable again
   * or moved to another dev server gets a new frame.
   */
  private async syncDevPlugins(): Promise<void> {
    const before = new Map(this.plugins.map((plugin) => [plugin.id, plugin]));
    await this.refreshPlugins();
    // Frames go into their <plugin-frame>, which the new list renders first.
    await this.updateComplete;
    const host = this.host;
    if (!host) return;
    const now = new Set(this.plugins.map((plugin) => plugin.id));
    for (const [id, old] of before) {
      if (old.dev === undefined || now.has(id)) continue;
      host.unload(id);
      this.buildErrors.delete(id);
      this.frameStatus.delete(id);
    }
    for (const plugin of this.plugins) {
      const old = before.get(plugin.id);
      const devChanged = old?.dev?.url !== plugin.dev?.url;
      if (plugin.dev === undefined && !devChanged) continue;
      if (plugin.status !== 'active') {
        host.unload(plugin.id);
        continue;
      }
      const running = host.plugin(plugin.id) !== undefined;
      if (!running || devChanged || old?.status !== 'active') this.retry(plugin.id);
    }
    this.requestUpdate();
  }

  private onHostEvent(event: PluginHostEvent): void {
    switch (event.type) {
      case 'activated':
        this.setFrameStatus(event.pluginId, 'ready', '');
        break;
      case 'load-failed':
        this.setFrameStatus(event.pluginId, 'failed', event.message);
        this.toasts.show(`${this.pluginName(event.pluginId)}: ${event.message}`, 'error', this.toastSource(event.pluginId));
        break;
      case 'skipped':
        this.setFrameStatus(event.pluginId, 'failed', event.message);
        this.toasts.show(event.message, 'error', this.toastSource(event.pluginId));
        break;
      case 'unresponsive':
        this.setFrameStatus(event.pluginId, 'unresponsive', '');
        break;
      case 'responsive':
        this.setFrameStatus(event.pluginId, 'ready', '');
        break;
      case 'runtime-error':
        // The stack (when the engine gave one) on its own lines; `hidden` errors say so in their message.
        console.warn(`[plugins] ${event.pluginId}: ${event.message}${event.source ? ` (${event.source})` : ''}${event.stack ? `\n${event.stack}` : ''}`);
        break;
      default:
        break;
    }
  }

  /** Reloads a plugin that stopped answering, or tries again one that failed; events report the outcome. */
  private retry(pluginId: string): void {
    if (!this.host) return;
    this.setFrameStatus(pluginId, 'loading', '');
    this.host.reload(pluginId).catch((error: unknown) => {
      // The host reported it (load-failed or skipped); this covers what it could not report.
      if (this.frameStatus.get(pluginId)?.status === 'loading') this.setFrameStatus(pluginId, 'failed', error instanceof Error ? error.message : String(error));
    });
  }

  private setFrameStatus(pluginId: string, status: PluginFrameStatus, message: string): void {
    this.frameStatus.set(pluginId, { status, message });
    this.requestUpdate();
  }

  private readonly onRouteChange = (): void => {
    this.route = parseRoute(currentRoute());
    this.navOpen = false;
    if (this.route.page === 'instance') void this.library.loadLastLaunch(this.route.instanceId);
    this.requestUpdate();
    this.showRoute();
    // The store stays in the page while hidden: opening it reads the catalog (and the source in use) anew.
    if (this.route.page === 'store') this.querySelector<PluginStore>('plugin-store')?.reload();
  };

  /** Opens or closes the collapsed sidebar (narrow windows). */
  private toggleNav(open = !this.navOpen): void {
    this.navOpen = open;
    this.requestUpdate();
  }

  /** Escape closes the sidebar shown over the page and gives the focus back to its toggle. */
  private readonly onKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !this.navOpen || event.defaultPrevented) return;
    this.toggleNav(false);
    this.querySelector<HTMLElement>('.nav-toggle')?.focus();
  };

  /** An update or rollback was installed: it runs after a restart. */
  private async onPluginChanged(): Promise<void> {
    this.restartNeeded = true;
    await this.refreshPlugins();
  }

  /** Saved launcher settings: new sources change the page's resource policy, which only a reload picks up. */
  private onSettingsSaved(detail: LauncherSettingsSavedDetail): void {
    if (detail.sourcesChanged) location.reload();
  }

  /** Shows the plugin page of the route: its main frame, or another page of it opened on demand. */
  private showRoute(): void {
    const route = this.route;
    const sidebar = this.querySelector('plugin-sidebar') as PluginSidebar | null;
    if (sidebar) sidebar.current = currentRoute();
    const wanted = route.page === 'plugin' ? route : undefined;
    const frontend = wanted ? this.plugins.find((plugin) => plugin.id === wanted.pluginId)?.manifest?.entry?.frontend : undefined;
    const secondary = wanted && wanted.path !== '' && wanted.path !== frontend ? wanted : undefined;
    if (this.openedPage && (!secondary || this.openedPage.pluginId !== secondary.pluginId || this.openedPage.path !== secondary.path)) {
      this.openedPage.close();
      this.openedPage = undefined;
    }
    const request = ++this.pageRequest;
    if (secondary && !this.openedPage && this.host) {
      const container = this.querySelector('#plugin-secondary') as HTMLElement;
      void this.host.openPage(secondary.pluginId, secondary.path, container).then(
        (page) => {
          if (request !== this.pageRequest) page.close();
          else this.openedPage = { pluginId: secondary.pluginId, path: secondary.path, close: page.close };
          this.requestUpdate();
        },
        (error: unknown) => this.toasts.show(describeError(error), 'error'),
      );
    }
  }

  private settingsTab() {
    return this.querySelector('plugin-settings-tab');
  }

  private async openSettingsPage(pluginId: string | null, page: { path: string } | null): Promise<void> {
    this.openedSettings?.close();
    this.openedSettings = undefined;
    const request = ++this.settingsRequest;
    if (pluginId === null || !page || !this.host) return;
    const container = this.querySelector(`[slot="settings-${CSS.escape(pluginId)}"]`) as HTMLElement | null;
    if (!container) return;
    try {
      const opened = await this.host.openPage(pluginId, page.path, container);
      // Another tab was chosen meanwhile: this page is no longer wanted.
      if (request !== this.settingsRequest) opened.close();
      else this.openedSettings = { pluginId, close: opened.close };
    } catch (error) {
      this.toasts.show(describeError(error), 'error');
    }
  }

  private async refreshPlugins(): Promise<void> {
    this.plugins = await this.backend.plugins();
    this.requestUpdate();
  }

  private async run(pluginId: string, action: () => Promise<unknown>, done: string): Promise<void> {
    this.busyIds = [...this.busyIds, pluginId];
    this.requestUpdate();
    try {
      await action();
      this.toasts.show(done, 'success');
      this.restartNeeded = true;
    } catch (error) {
      this.toasts.show(describeError(error), 'error');
    } finally {
      this.busyIds = this.busyIds.filter((id) => id !== pluginId);
      await this.refreshPlugins();
    }
  }

  /** Uninstalls a plugin; a running one is stopped first, so no frame or registration outlives it. */
  private async uninstall(pluginId: string): Promise<void> {
    const name = this.pluginName(pluginId);
    await this.run(
      pluginId,
      async () => {
        await this.backend.uninstall(pluginId);
        // Gone for good: its contributed sidebar items go too, not only its dynamic ones.
        this.host?.unload(pluginId);
      },
      `${name} uninstalled.`,
    );
  }

  /**
   * The store's install dialog was confirmed and the backend installed exactly the package it
   * showed (decisions section 12: the store element runs both steps with the backend).
   */
  private async onStoreInstalled(detail: { slug: string; version: string; plugin: PluginInfo }): Promise<void> {
    this.toasts.show(`${detail.plugin.name} ${detail.version} installed from the store. Restart the launcher to start it.`, 'success');
    this.restartNeeded = true;
    await this.refreshPlugins();
  }

  private async restart(): Promise<void> {
    try {
      await this.backend.restart();
    } finally {
      location.reload();
    }
  }

  /** Inspects a package and asks the user through the install dialog. */
  private async offerInstall(file: File): Promise<void> {
    const dialog = this.querySelector('plugin-install-dialog') as PluginInstallDialog;
    try {
      dialog.show(await this.backend.inspect(file));
    } catch (error) {
      this.toasts.show(`${file.name} is not an installable plugin: ${describeError(error)}`, 'error');
      return;
    }
    // One pair of listeners per offer, both removed when the offer ends, so a cancelled package is
    // never installed later and a failed install can be retried from the same dialog.
    const onConfirm = (): void => {
      void (async () => {
        dialog.busy = true;
        try {
          const installed = await this.backend.install(file);
          finish();
          dialog.close();
          this.toasts.show(`${installed.name} ${installed.version} installed. Restart the launcher to start it.`, 'success');
          this.restartNeeded = true;
          await this.refreshPlugins();
        } catch (error) {
          dialog.error = describeError(error);
        } finally {
          dialog.busy = false;
        }
      })();
    };
    const finish = (): void => {
      dialog.removeEventListener('plugin-install-confirm', onConfirm);
      dialog.removeEventListener('plugin-install-cancel', finish);
    };
    dialog.addEventListener('plugin-install-confirm', onConfirm);
    dialog.addEventListener('plugin-install-cancel', finish);
  }

  private readonly onDragOver = (event: DragEvent): void => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  };

  /**
   * Drops: a plugin package opens the install dialog; other files go to every active plugin that
   * registered a `file-drop` method (the specification's `file-drop` event). A browser does not
   * reveal absolute paths, so plugins receive the file names.
   */
  private readonly onDrop = (event: DragEvent): void => {
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    const packageFile = files.find((file) => PACKAGE_FILE.test(file.name));
    if (packageFile) {
      void this.offerInstall(packageFile);
      return;
    }
    void this.forwardFileDrop(files.map((file) => file.name));
  };

  /** Forwards dropped file names to plugins that registered `file-drop`. */
  async forwardFileDrop(paths: readonly string[]): Promise<number> {
    const host = this.host;
    if (!host) return 0;
    const receivers = host.activePlugins().filter((id) => host.registeredMethods(id).includes('file-drop'));
    await Promise.all(
      receivers.map((id) =>
        host.callPluginMethod(id, 'file-drop', [paths]).catch((error: unknown) => console.warn(`[plugins] file-drop to ${id} failed`, error)),
      ),
    );
    if (receivers.length === 0) this.toasts.show('No plugin accepts dropped files.', 'info');
    return receivers.length;
  }

  /** Launches an instance through the plugins' `launchGame` hooks and says how it went. */
  private async launchGame(instanceId: string): Promise<void> {
    if (!this.host) return;
    const outcome = await this.library.launch(instanceId, this.host);
    if (outcome.kind === 'failed') this.toasts.show(`The game could not start: ${describeError(outcome.error)}`, 'error');
    else if (outcome.kind === 'prevented')
      this.toasts.show(`A plugin prevented the launch of ${outcome.record.instanceName}: ${outcome.record.preventedReason ?? 'no reason given'}`, 'info');
    else this.toasts.show(`${outcome.record.instanceName} ran and exited with code ${outcome.record.exitCode}.`, 'success');
  }

  override render() {
    const route = this.route;
    return html`
      <div class="launcher" data-nav=${this.navOpen ? 'open' : 'closed'}>
        <header class="topbar">
          <button type="button" class="nav-toggle" aria-controls="launcher-nav" aria-expanded=${this.navOpen ? 'true' : 'false'} @click=${() => this.toggleNav()}>
            <span aria-hidden="true">☰</span> Menu
          </button>
          <span class="brand">PlugHost</span>
        </header>
        <plugin-sidebar
          id="launcher-nav"
          .devPluginIds=${this.plugins.filter((plugin) => plugin.dev !== undefined).map((plugin) => plugin.id)}
          @plugin-command=${(event: CustomEvent<{ pluginId: string; id: string; method?: string }>) => void this.runCommand(event.detail)}>
          <div class="brand">PlugHost</div>
          ${this.navLink('/', 'Home', 'home')} ${this.navLink('/plugins', 'Plugins', 'plugins')} ${this.navLink('/store', 'Store', 'store')}
          ${this.navLink('/downloads', 'Downloads', 'downloads')} ${this.navLink('/settings', 'Settings', 'settings')}
        </plugin-sidebar>
        <main id="main">
          ${
            this.restartNeeded
              ? html`<div class="banner" role="status">Plugin changes take effect after a restart. <button type="button" class="primary" @click=${() => void this.restart()}>Restart launcher</button></div>`
              : nothing
          }
          ${this.startupError ? html`<p class="banner error" role="alert">${this.startupError}</p>` : nothing}
          <div id="inline-plugins"></div>
          <section ?hidden=${route.page !== 'home'} aria-labelledby="home-title">
            <h1 id="home-title">Home</h1>
            <p>${this.plugins.filter((plugin) => plugin.status === 'active').length} of ${this.plugins.length} plugins are active. Open one from the sidebar, or manage them under Plugins.</p>
            ${this.startupError ? nothing : renderLibrary(this.library)}
          </section>
          <section ?hidden=${route.page !== 'instance'} aria-labelledby="instance-title">
            ${route.page === 'instance' && !this.startupError ? renderInstancePage(this.library, route.instanceId, () => void this.launchGame(route.instanceId)) : nothing}
          </section>
          <section ?hidden=${route.page !== 'plugins'} aria-labelledby="plugins-title">
            <h1 id="plugins-title">Plugins</h1>
            <label class="install">Install a plugin package <input type="file" accept=".plugpkg,.zip" @change=${(event: Event) => this.onFileChosen(event)} /></label>
            <p class="hint">Or drop a .plugpkg file anywhere on the launcher.</p>
            <plugin-manager
              icon-stylesheet="/ui/icons.css"
              .plugins=${this.plugins}
              .filesBase=${(id: string) => this.backend.filesBase(id)}
              .busyIds=${this.busyIds}
              .updates=${this.updates}
              .loadedVersions=${this.loadedVersions()}
              @plugin-toggle=${(event: CustomEvent<{ id: string; enabled: boolean }>) => void this.run(event.detail.id, () => this.backend.setEnabled(event.detail.id, event.detail.enabled), `${this.pluginName(event.detail.id)} will be ${event.detail.enabled ? 'enabled' : 'disabled'} after a restart.`)}
              @plugin-uninstall=${(event: CustomEvent<{ id: string }>) => void this.uninstall(event.detail.id)}
              @plugin-updated=${() => void this.onPluginChanged()}
              @plugin-rolled-back=${() => void this.onPluginChanged()}
            ></plugin-manager>
          </section>
          <section ?hidden=${route.page !== 'store'} aria-labelledby="store-title">
            <h1 id="store-title">Store</h1>
            ${this.renderStore()}
          </section>
          <section ?hidden=${route.page !== 'downloads'} aria-labelledby="downloads-title">
            <h1 id="downloads-title">Downloads</h1>
            <plugin-download-center controller="backend" .source=${this.backendSource}>
              <a slot="empty" class="action-link" href="#/store">Browse the store</a>
            </plugin-download-center>
          </section>
          <section ?hidden=${route.page !== 'settings'} aria-labelledby="settings-title">
            <h1 id="settings-title">Settings</h1>
            <launcher-settings-page
              .source=${this.backendSource}
              @launcher-settings-saved=${(event: CustomEvent<LauncherSettingsSavedDetail>) => this.onSettingsSaved(event.detail)}
            >
              <plugin-settings-tab
                slot="plugins"
                .plugins=${this.plugins.filter((plugin) => plugin.status === 'active').map((plugin) => ({ id: plugin.id, name: plugin.name, settingsPages: plugin.manifest?.contributes?.settingsPages ?? [] }))}
                @plugin-settings-select=${(event: CustomEvent<{ pluginId: string | null; page: { path: string } | null }>) => void this.openSettingsPage(event.detail.pluginId, event.detail.page)}
              >
                <p>Choose a plugin to see its settings. Plugins without settings pages have none to change.</p>
                ${repeat(
                  this.plugins.filter((plugin) => (plugin.manifest?.contributes?.settingsPages ?? []).length > 0),
                  (plugin) => plugin.id,
                  (plugin) => html`<div class="settings-page" slot=${`settings-${plugin.id}`}></div>`,
                )}
              </plugin-settings-tab>
            </launcher-settings-page>
          </section>
          ${
            route.page === 'plugin' && !this.plugins.some((plugin) => plugin.id === route.pluginId)
              ? html`<p class="banner error" role="alert">No installed plugin ${route.pluginId}.</p>`
              : nothing
          }
          ${route.page === 'not-found' ? html`<p class="banner error" role="alert">No page ${route.route}.</p>` : nothing}
          ${
            // The plugin's page is a frame: the launcher names the page for assistive technology.
            route.page === 'plugin' && this.plugins.some((plugin) => plugin.id === route.pluginId)
              ? html`<h1 class="sr-only">${this.pluginName(route.pluginId)}</h1>`
              : nothing
          }
          ${this.renderShownBuildError()}
          <div id="plugin-pages">
            ${repeat(
              this.framedPlugins(),
              (plugin) => plugin.id,
              (plugin) => {
                const state = this.frameStatus.get(plugin.id) ?? { status: 'loading' as const, message: '' };
                const shown = route.page === 'plugin' && route.pluginId === plugin.id && (route.path === '' || route.path === plugin.manifest?.entry?.frontend);
                return html`<plugin-frame
                  plugin-id=${plugin.id}
                  plugin-name=${plugin.name}
                  ?active=${shown}
                  status=${state.status}
                  message=${state.message}
                  @plugin-frame-reload=${() => this.retry(plugin.id)}
                  @plugin-frame-disable=${() => void this.run(plugin.id, () => this.backend.setEnabled(plugin.id, false), `${plugin.name} will be disabled after a restart.`).then(() => this.host?.deactivate(plugin.id))}
                ></plugin-frame>`;
              },
            )}
          </div>
          <div id="plugin-secondary" ?hidden=${!(route.page === 'plugin' && this.openedPage)}></div>
        </main>
      </div>
      <div id="overlay-layer"></div>
      <plugin-toasts></plugin-toasts>
      <plugin-consent-dialog></plugin-consent-dialog>
      <plugin-install-dialog></plugin-install-dialog>
    `;
  }

  /** The build error of the dev plugin whose page is shown, above that page. */
  private renderShownBuildError() {
    const route = this.route;
    const error = route.page === 'plugin' ? this.buildErrors.get(route.pluginId) : undefined;
    if (!error) return nothing;
    return renderBuildError(error, this.pluginName(error.pluginId), () => {
      this.buildErrors.delete(error.pluginId);
      this.requestUpdate();
    });
  }

  /**
   * The store of the launcher's sources: the element reads them from the backend, falls back to
   * a backup source, names the source in use and shows "Store unavailable" with Retry.
   */
  private renderStore() {
    return html`<plugin-store
      .backend=${this.backendSource}
      .installed=${this.plugins.map((plugin) => ({ id: plugin.id, version: plugin.version, restartPending: plugin.restartPending === true }))}
      .updates=${this.updates}
      install-enables
      @plugin-store-installed=${(event: CustomEvent<{ slug: string; version: string; plugin: PluginInfo }>) => void this.onStoreInstalled(event.detail)}
      @plugin-store-install-failed=${(event: CustomEvent<{ message: string }>) => this.toasts.show(event.detail.message, 'error')}
      @plugin-updated=${() => void this.onPluginChanged()}
    ></plugin-store>`;
  }

  /** A sidebar link; `icon` names the launcher icon an icon theme may replace (`--launcher-icon-<icon>`). */
  private navLink(route: string, label: string, icon: string) {
    const current = currentRoute() === route || (route === '/' && currentRoute() === '');
    return html`<a class=${`nav-link nav-${icon}`} href=${`#${route}`} aria-current=${current ? 'page' : 'false'}>${label}</a>`;
  }

  private onFileChosen(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void this.offerInstall(file);
  }

  /** A command shortcut calls the method the plugin registered for it (`method`, default the command id). */
  private async runCommand(command: { pluginId: string; id: string; method?: string }): Promise<void> {
    if (!this.host) return;
    await this.host
      .callPluginMethod(command.pluginId, command.method ?? command.id, [])
      .catch((error: unknown) => this.toasts.show(describeError(error), 'error'));
  }
}
