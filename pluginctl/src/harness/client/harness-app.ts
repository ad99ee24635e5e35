import { LitElement, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { BackendClient, PluginHost, hslTripletToHex, type PluginHostEvent } from '@plughost/host-sdk';
import { type DevServerEvent, describeError, isPluginHostError } from '@plughost/host-sdk/core';
import {
  createLauncherUi,
  createOverlayLayer,
  type PluginConsentDialog,
  type PluginFrameStatus,
  type PluginSettingsSelectDetail,
  type PluginSettingsTab,
  type PluginSidebar,
  type PluginToasts,
} from '@plughost/web-components';
import { HARNESS_PATHS, type HarnessBuildEvent, type HarnessPageConfig } from '../page-config.js';
import { clockTime, describeBuildState, nextBuildState, type PluginBuildState } from './build-state.js';
import { type DevEventsConnection, listenToDevEvents } from './dev-events.js';
import { hasMenuItemForFrontend, isFramed, listHarnessPlugins, type HarnessPlugin } from './harness-plugins.js';
import { readBuildEvents } from './page-config.js';
import { currentRoute, goTo, parseRoute, type HarnessRoute } from './routes.js';
import { stripAnsi } from './strip-ansi.js';

/**
 * The launcher routes plugins may reach through `callBackend`: the demo launcher's list
 * (decisions 2), so a plugin meets the same answers here as in the demo.
 */
const ALLOWED_LAUNCHER_ROUTES = ['/instance', '/resources/search', '/settings', '/resource-download/start'];
/** The stub needs no token; the host's client sends one with every call all the same. */
const HARNESS_TOKEN = 'debug-harness';

/** The last failed build of a plugin, shown until its next successful build. */
interface BuildFailure {
  readonly at: Date;
  readonly output: string;
}

/**
 * The debug harness page: every plugin of `plugins-dev/` hosted by the real `PluginHost` (bridge,
 * permission gate, sandboxed frames) in the real launcher elements (`<plugin-frame>`, overlays,
 * `<plugin-settings-tab>`, `<plugin-toasts>`, `<plugin-sidebar>`), against the stub backend that
 * the harness server forwards `/api/*` to. Build events from the harness replace a plugin's frame
 * with a new one after a successful build and show the build output after a failed one, while the
 * running version stays. Renders into its own light DOM, like a launcher page, so the frames the
 * host creates are never moved.
 */
export class HarnessApp extends LitElement {
  /** Set by `main.ts` before the element is connected. */
  config: HarnessPageConfig = { stubUrl: '', mockFile: null, mockKeys: [], builds: [] };

  private readonly client = new BackendClient({ baseUrl: location.origin, token: HARNESS_TOKEN });
  private host: PluginHost | undefined;
  private route: HarnessRoute = parseRoute(currentRoute());
  private plugins: HarnessPlugin[] = [];
  /** The plugins the harness watches, from its `hello` event. */
  private watched: readonly string[] = [];
  private readonly builds = new Map<string, PluginBuildState>();
  /** The time (`at`) of the last build event applied per plugin, so an event is applied once. */
  private readonly applied = new Map<string, string>();
  private readonly failures = new Map<string, BuildFailure>();
  private readonly frameStatus = new Map<string, { status: PluginFrameStatus; message: string }>();
  private startupError = '';
  private connection: DevEventsConnection = 'connecting';
  /** Resolves when the host has started; frame replacements wait for it. */
  private started: Promise<void> = new Promise(() => undefined);
  /** The last frame replacement of each plugin: replacements of one plugin run one after another. */
  private readonly replacing = new Map<string, Promise<void>>();
  private openedPage: { pluginId: string; path: string; close(): void } | undefined;
  private openedSettings: { pluginId: string; path: string; close(): void } | undefined;
  private pageRequest = 0;
  private settingsRequest = 0;
  private stopEvents: (() => void) | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onRouteChange);
    this.started = this.start();
  }

  override disconnectedCallback(): void {
    window.removeEventListener('hashchange', this.onRouteChange);
    this.stopEvents?.();
    this.host?.dispose();
    super.disconnectedCallback();
  }

  private get toasts(): PluginToasts {
    return this.querySelector('plugin-toasts') as PluginToasts;
  }

  private pluginName(id: string): string {
    return this.plugins.find((plugin) => plugin.id === id)?.name ?? id;
  }

  private async start(): Promise<void> {
    // The builds before this page was served: shown, never replayed (the host loads what is built now).
    for (const event of this.config.builds) this.applyBuildEvent(event, false);
    // Listening starts first: a build that finishes while the host starts is not missed.
    this.stopEvents = listenToDevEvents({
      onEvent: (event) => this.onDevEvent(event),
      onConnection: (state) => {
        this.connection = state;
        this.requestUpdate();
      },
    });
    try {
      this.plugins = await listHarnessPlugins(this.client);
    } catch (error) {
      // A failed answer (the harness's 502 names the stub and what to do) or no answer at all.
      this.startupError = isPluginHostError(error)
        ? `The plugin list could not be read: ${describeError(error)}`
        : `The harness server did not answer (${describeError(error)}): pluginctl dev may have stopped. Start it again and reload this page.`;
      this.requestUpdate();
      return;
    }
    this.requestUpdate();
    await this.updateComplete;
    const ui = createLauncherUi({
      toasts: this.toasts,
      consent: this.querySelector('plugin-consent-dialog') as PluginConsentDialog,
      sidebar: this.querySelector('plugin-sidebar') as PluginSidebar,
      overlays: createOverlayLayer({
        container: this.querySelector('#overlay-layer') as HTMLElement,
        filesBase: (id) => this.client.url(`/api/plugins/${encodeURIComponent(id)}/files`),
      }),
      navigate: (route) => goTo(route),
      openPluginSettings: (pluginId) => {
        goTo('/settings');
        void this.updateComplete.then(() => this.settingsTab()?.openFor(pluginId));
      },
      themeColor: () => hslTripletToHex(getComputedStyle(document.documentElement).getPropertyValue('--primary')) ?? null,
      pluginName: (id) => this.pluginName(id),
    });
    this.host = new PluginHost({
      baseUrl: this.client.url(''),
      token: HARNESS_TOKEN,
      ui,
      frameContainer: (id) => this.querySelector(`plugin-frame[plugin-id="${CSS.escape(id)}"]`) ?? (this.querySelector('#plugin-pages') as HTMLElement),
      inlineContainer: this.querySelector('#inline-plugins') as HTMLElement,
      guestRuntime: () => fetch(HARNESS_PATHS.guestRuntime).then((response) => response.text()),
      allowedLauncherRoutes: ALLOWED_LAUNCHER_ROUTES,
    });
    this.host.on((event) => this.onHostEvent(event));
    const report = await this.host.start();
    for (const id of report.activated) this.setFrameStatus(id, 'ready', '');
    this.showRoute();
  }

  private onDevEvent(event: DevServerEvent): void {
    if (event.type === 'hello') {
      this.watched = event.pluginIds;
      void this.catchUp(event.pluginIds);
    } else {
      this.applyBuildEvent(event, true);
    }
    this.requestUpdate();
  }

  /**
   * After each (re)connection of the event stream: what happened while it was not connected. The
   * harness's last build event of each plugin is applied when it is newer than the last one seen,
   * and plugins added to or removed from `plugins-dev/` are loaded or dropped (compared once the
   * host has started with the list it read, so no plugin is loaded twice).
   */
  private async catchUp(pluginIds: readonly string[]): Promise<void> {
    try {
      const response = await fetch(HARNESS_PATHS.builds, { cache: 'no-store' });
      for (const event of readBuildEvents(await response.json())) {
        const seen = this.applied.get(event.pluginId);
        if (seen === undefined || event.at > seen) this.applyBuildEvent(event, true);
      }
    } catch {
      // The harness went away again; the next connection catches up.
    }
    await this.started;
    const known = this.plugins.map((plugin) => plugin.id);
    for (const id of pluginIds) if (!known.includes(id)) this.replaceFrame(id);
    for (const id of known) if (!pluginIds.includes(id)) this.replaceFrame(id);
    this.requestUpdate();
  }

  /** Shows a build event; with `live`, a successful build also replaces the plugin's frame. */
  private applyBuildEvent(event: HarnessBuildEvent, live: boolean): void {
    this.applied.set(event.pluginId, event.at);
    this.builds.set(event.pluginId, nextBuildState(event));
    if (event.type === 'build-failed') this.failures.set(event.pluginId, { at: new Date(event.at), output: stripAnsi(event.output) });
    if (event.type === 'rebuilt') {
      this.failures.delete(event.pluginId);
      if (live) this.replaceFrame(event.pluginId);
    }
    this.requestUpdate();
  }

  /**
   * Replaces a plugin's frame with a new one after a successful build (decisions 11: a new frame,
   * never the old one navigated again). The plugin list is read again first, so a changed manifest
   * and a plugin that is new in `plugins-dev/` are picked up. A settings page of the plugin that is
   * open is reopened on the new version.
   */
  private replaceFrame(pluginId: string): void {
    const previous = this.replacing.get(pluginId) ?? this.started;
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const host = this.host;
        if (!host) return;
        await this.refreshPlugins();
        const plugin = this.plugins.find((candidate) => candidate.id === pluginId);
        if (plugin?.status !== 'active' || plugin.manifest?.entry?.frontend === undefined) {
          // Gone from plugins-dev/ (or no longer loadable): its frame and sidebar items go.
          host.unload(pluginId);
          return;
        }
        // A new plugin's <plugin-frame> must exist before the host looks for it.
        await this.updateComplete;
        const settings = this.openedSettings?.pluginId === pluginId ? this.openedSettings : undefined;
        if (settings) {
          settings.close();
          this.openedSettings = undefined;
        }
        if (this.openedPage?.pluginId === pluginId) this.closeOpenedPage();
        this.setFrameStatus(pluginId, 'loading', '');
        // Failures arrive as host events (load-failed, skipped) and show in the plugin's frame.
        await host.reload(pluginId).catch(() => undefined);
        if (settings && this.settingsTab()?.selected === pluginId) void this.openSettingsPage(pluginId, { path: settings.path });
        this.showRoute();
      });
    this.replacing.set(pluginId, next);
  }

  private async refreshPlugins(): Promise<void> {
    try {
      this.plugins = await listHarnessPlugins(this.client);
    } catch (error) {
      this.toasts.show(`The plugin list could not be read again: ${describeError(error)}`, 'error');
    }
    this.requestUpdate();
  }

  private onHostEvent(event: PluginHostEvent): void {
    switch (event.type) {
      case 'activated':
      case 'responsive':
        this.setFrameStatus(event.pluginId, 'ready', '');
        break;
      case 'load-failed':
      case 'skipped':
        this.setFrameStatus(event.pluginId, 'failed', event.message);
        this.toasts.show(`${this.pluginName(event.pluginId)}: ${event.message}`, 'error', { pluginId: event.pluginId });
        break;
      case 'unresponsive':
        this.setFrameStatus(event.pluginId, 'unresponsive', '');
        break;
      case 'runtime-error':
        console.warn(`[plugins] ${event.pluginId}: ${event.message}${event.source ? ` (${event.source})` : ''}${event.stack ? `\n${event.stack}` : ''}`);
        break;
      default:
        break;
    }
  }

  private setFrameStatus(pluginId: string, status: PluginFrameStatus, message: string): void {
    this.frameStatus.set(pluginId, { status, message });
    this.requestUpdate();
  }

  private readonly onRouteChange = (): void => {
    this.route = parseRoute(currentRoute());
    this.requestUpdate();
    this.showRoute();
  };

  /** The plugin whose main page is shown: the route's, or the first plugin's when none is chosen. */
  private shownPluginId(): string | undefined {
    const route = this.route;
    if (route.page === 'plugin') return route.pluginId;
    if (route.page === 'start') return this.plugins.find(isFramed)?.id;
    return undefined;
  }

  private closeOpenedPage(): void {
    this.openedPage?.close();
    this.openedPage = undefined;
  }

  /** Opens another page of a plugin when the route names one (a menu item's page), as a launcher does. */
  private showRoute(): void {
    const route = this.route;
    const sidebar = this.querySelector('plugin-sidebar') as PluginSidebar | null;
    if (sidebar) sidebar.current = currentRoute();
    const wanted = route.page === 'plugin' ? route : undefined;
    const frontend = wanted ? this.plugins.find((plugin) => plugin.id === wanted.pluginId)?.manifest?.entry?.frontend : undefined;
    const secondary = wanted && wanted.path !== '' && wanted.path !== frontend ? wanted : undefined;
    if (this.openedPage && (!secondary || this.openedPage.pluginId !== secondary.pluginId || this.openedPage.path !== secondary.path)) this.closeOpenedPage();
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

  private settingsTab(): PluginSettingsTab | null {
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
      if (request !== this.settingsRequest) opened.close();
      else this.openedSettings = { pluginId, path: page.path, close: opened.close };
    } catch (error) {
      this.toasts.show(describeError(error), 'error');
    }
  }

  /** Tries again a plugin that failed, or reloads one that stopped answering (the frame's buttons). */
  private retry(pluginId: string): void {
    this.replaceFrame(pluginId);
  }

  override render() {
    const route = this.route;
    const shown = this.shownPluginId();
    return html`
      ${this.renderHeader()}
      <div class="harness-body">
        <plugin-sidebar aria-label="Harness navigation">
          ${repeat(
            this.plugins.filter((plugin) => isFramed(plugin) && !hasMenuItemForFrontend(plugin)),
            (plugin) => plugin.id,
            (plugin) => this.navLink(`/plugins/${plugin.id}`, plugin.name),
          )}
          ${this.navLink('/settings', 'Plugin settings')}
        </plugin-sidebar>
        <main id="main" tabindex="-1">
          ${this.startupError ? html`<p class="banner error" role="alert">${this.startupError}</p>` : nothing}
          ${this.renderFailures()}
          ${
            !this.startupError && this.plugins.length === 0
              ? html`<p class="banner" role="status">
                  No plugins in <code>plugins-dev/</code> yet. Create one with <code>pluginctl create &lt;id&gt;</code> inside <code>plugins-dev/</code>: the harness picks it
                  up.
                </p>`
              : nothing
          }
          ${route.page === 'not-found' ? html`<p class="banner error" role="alert">No page ${route.route} in the harness.</p>` : nothing}
          ${
            route.page === 'plugin' && this.plugins.length > 0 && !this.plugins.some((plugin) => plugin.id === route.pluginId)
              ? html`<p class="banner error" role="alert">No plugin ${route.pluginId} in plugins-dev/.</p>`
              : nothing
          }
          <div id="plugin-pages">
            ${repeat(
              this.plugins.filter(isFramed),
              (plugin) => plugin.id,
              (plugin) => {
                const state = this.frameStatus.get(plugin.id) ?? { status: 'loading' as const, message: '' };
                const active = shown === plugin.id && !(route.page === 'plugin' && this.openedPage);
                return html`<plugin-frame
                  plugin-id=${plugin.id}
                  plugin-name=${plugin.name}
                  ?active=${active}
                  status=${state.status}
                  message=${state.message}
                  @plugin-frame-reload=${() => this.retry(plugin.id)}
                  @plugin-frame-disable=${() => this.toasts.show(`${plugin.name}: disabling is a launcher action; in the harness, move its folder out of plugins-dev/.`, 'info')}
                ></plugin-frame>`;
              },
            )}
          </div>
          <div id="plugin-secondary" ?hidden=${!(route.page === 'plugin' && this.openedPage)}></div>
          <section ?hidden=${route.page !== 'settings'} aria-labelledby="settings-title">
            <h2 id="settings-title">Plugin settings</h2>
            <plugin-settings-tab
              .plugins=${this.plugins
                .filter((plugin) => plugin.status === 'active')
                .map((plugin) => ({ id: plugin.id, name: plugin.name, settingsPages: plugin.manifest?.contributes?.settingsPages ?? [] }))}
              @plugin-settings-select=${(event: CustomEvent<PluginSettingsSelectDetail>) => void this.openSettingsPage(event.detail.pluginId, event.detail.page)}
            >
              <p>Plugins with settings pages (<code>contributes.settingsPages</code>) have a tab here, as in a launcher's Settings.</p>
              ${repeat(
                this.plugins.filter((plugin) => (plugin.manifest?.contributes?.settingsPages ?? []).length > 0),
                (plugin) => plugin.id,
                (plugin) => html`<div class="settings-page" slot=${`settings-${plugin.id}`}></div>`,
              )}
            </plugin-settings-tab>
          </section>
          <div id="inline-plugins"></div>
        </main>
      </div>
      <div id="overlay-layer"></div>
      <plugin-toasts></plugin-toasts>
      <plugin-consent-dialog></plugin-consent-dialog>
    `;
  }

  private renderHeader() {
    const { stubUrl, mockFile, mockKeys } = this.config;
    const ids = [...new Set([...this.plugins.map((plugin) => plugin.id), ...this.watched])];
    return html`<header class="harness-header">
      <div class="title">
        <h1>Debug harness</h1>
        <dl class="facts">
          <div><dt>Stub backend</dt><dd><code>${stubUrl}</code></dd></div>
          <div>
            <dt>Mock</dt>
            <dd>${mockFile ? html`<code>${mockFile}</code>${mockKeys.length > 0 ? html` (${mockKeys.join(', ')})` : nothing}` : 'none (the stub\u2019s default data)'}</dd>
          </div>
          <div><dt>Hot reload</dt><dd data-connection=${this.connection}>${CONNECTION_WORDS[this.connection]}</dd></div>
        </dl>
      </div>
      <section class="builds" aria-labelledby="builds-title">
        <h2 id="builds-title">Builds</h2>
        <ul aria-live="polite">
          ${repeat(
            ids,
            (id) => id,
            (id) => {
              const state = this.builds.get(id) ?? { kind: 'watching' as const };
              return html`<li class="build" data-plugin-id=${id} data-build=${state.kind}>
                <span class="build-icon" aria-hidden="true">${BUILD_ICONS[state.kind]}</span>
                <span class="build-name">${this.pluginName(id)}</span>
                <span class="build-state">${describeBuildState(state)}</span>
              </li>`;
            },
          )}
        </ul>
      </section>
    </header>`;
  }

  private renderFailures() {
    return repeat(
      [...this.failures],
      ([id]) => id,
      ([id, failure]) =>
        html`<section class="build-error" role="alert" data-plugin-id=${id} aria-labelledby=${`build-error-${id}`}>
          <h2 id=${`build-error-${id}`}>Build of ${this.pluginName(id)} failed at ${clockTime(failure.at)}</h2>
          <p>The previous version keeps running. Fix the error and save: the next successful build replaces it.</p>
          <pre tabindex="0" aria-label=${`Build output of ${id}`}>${failure.output || '(the build printed nothing)'}</pre>
        </section>`,
    );
  }

  private navLink(route: string, label: string) {
    const current = currentRoute() === route;
    return html`<a class="nav-link" href=${`#${route}`} aria-current=${current ? 'page' : 'false'}>${label}</a>`;
  }
}

const CONNECTION_WORDS: Readonly<Record<DevEventsConnection, string>> = {
  connecting: 'connecting…',
  connected: 'connected',
  reconnecting: 'connection lost, reconnecting…',
  stopped: 'stopped: pluginctl dev is not running (start it again and reload this page)',
};

const BUILD_ICONS: Readonly<Record<PluginBuildState['kind'], string>> = {
  watching: '•',
  building: '↻',
  built: '✓',
  failed: '✗',
};
