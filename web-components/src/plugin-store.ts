import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { PluginInfo } from '@plughost/host-sdk/core';
import type { LauncherBackendSource } from './plugin-manager/backend-request.js';
import { keepFocusInDialog } from './dialog-focus.js';
import type { PluginUpdates } from './plugin-manager/plugin-updates.js';
import { UpdateConsentPrompt, updateConsentStyles } from './plugin-manager/update-consent.js';
import { UpdatesSubscription } from './plugin-manager/updates-subscription.js';
import { renderDetail } from './plugin-store/detail-view.js';
import { renderCount, renderList, renderToolbar, type ListView } from './plugin-store/list-view.js';
import { directCatalog, type StorePlugin, type StoreSort } from './plugin-store/registry-client.js';
import { renderSourceLine, renderUnavailable } from './plugin-store/source-view.js';
import { StoreData } from './plugin-store/store-data.js';
import { actionOf, isSort, type Action, type DetailState, type InstalledUpdateState } from './plugin-store/store-model.js';
import { StoreInstallFlow, type StoreInstallTarget } from './plugin-store/store-install-flow.js';
import { storeStyles } from './plugin-store/store-styles.js';
import { StoreSources } from './plugin-store/store-sources.js';

export type { StorePage, StorePlugin, StorePluginDetail, StoreSort, StoreVersion } from './plugin-store/registry-client.js';
export { STORE_SORTS } from './plugin-store/registry-client.js';

/** A plugin the launcher has installed, as it passes it in `installed`. */
export interface StoreInstalledPlugin {
  /** The manifest id (the Registry Plugin object's `id`). */
  readonly id: string;
  /** The installed version. */
  readonly version: string;
  /**
   * PluginInfo's `restartPending`: the installed version (or copy) runs only after the launcher
   * restarts, so the card says "Restart to apply" rather than "Installed".
   */
  readonly restartPending?: boolean;
}

/** `detail` of `plugin-store-install`: what to install (or update to) from the store. */
export interface PluginStoreInstallDetail {
  /** The plugin's slug on the store (for `GET /plugins/<slug>/versions/<version>/download`). */
  readonly slug: string;
  /** The version to install: the plugin's latest version. */
  readonly version: string;
  /** The plugin's manifest id. */
  readonly id: string;
}

/** `detail` of `plugin-store-installed`: the user confirmed the install dialog and the backend installed the package. */
export interface PluginStoreInstalledDetail {
  readonly id: string;
  readonly slug: string;
  /** The version installed (the package's own). */
  readonly version: string;
  /** The backend's PluginInfo after the install (it runs after a restart). */
  readonly plugin: PluginInfo;
}

/** `detail` of `plugin-store-install-failed`: the inspection or the install was refused (also shown under the button or in the dialog). */
export interface PluginStoreInstallFailedDetail {
  readonly id: string;
  readonly slug: string;
  /** The backend's error code (`STORE_LISTING_MISMATCH`, `SIGNATURE_INVALID`, ...), `NETWORK_ERROR` when it was not reached. */
  readonly code: string;
  readonly message: string;
}

/** `detail` of `plugin-updated` from the store: the plugin and the version now on disk (loaded at the next restart). */
export interface PluginStoreUpdatedDetail {
  readonly id: string;
  readonly slug: string;
  readonly version: string;
  /** The backend's PluginInfo after the update. */
  readonly plugin: PluginInfo;
}

/** `detail` of `plugin-update-failed` from the store. */
export interface PluginStoreUpdateFailedDetail {
  readonly id: string;
  readonly slug: string;
  readonly action: 'update';
  /** The backend's error code. */
  readonly code: string;
  readonly message: string;
}

/** The page size the store asks for unless `page-size` says otherwise. */
export const STORE_PAGE_SIZE = 12;

/** How long typing must pause before the search runs, in milliseconds. */
export const STORE_SEARCH_DEBOUNCE_MS = 300;

/** The element focused now, looking through open shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/**
 * A store browser for a registry speaking the open registry protocol (docs/registry.md): a search
 * box (runs 300 ms after typing stops, or on Enter), a category filter (the categories of every
 * plugin seen so far), a sort order and pages of plugin cards (12 a page, "Previous"/"Next"). Each
 * card shows the plugin's icon (`iconUrl` when it is `https:` or on the page's origin, else the
 * name's initial), name, latest version, a clamped description, tags, downloads (`1.2k`), rating
 * and a button: "Install", "Installed", or, for an installed plugin that the launcher's update list
 * (`updates`, `GET /api/plugins/updates`) names, "Update to x.y.z" with that list's version. The
 * store's own latest version is never compared with the installed one: it may be paused or outside
 * this installation's rollout. Choosing a card opens a modal detail panel (`GET /plugins/<slug>`) with the
 * description, the latest version's permissions and their risk colours (`<plugin-permission-list>`),
 * and every published version, newest first, with its date and changelog.
 *
 * The element reads the registry itself (`GET /plugins`, `GET /plugins/<slug>`; the protocol
 * allows any origin) and aborts a request whose answer is no longer wanted. "Update to x.y.z" runs
 * the shared update flow of `updates` (the same as `<plugin-manager>`'s: a consent dialog for added
 * permissions, then `POST /api/plugins/<id>/update`; the button says "Updating…" meanwhile and
 * "Restart to apply" afterwards) and fires `plugin-updated` or `plugin-update-failed`. It never
 * installs without the user seeing the package: with `backend`, "Install" runs the two steps of a
 * store install (decisions section 12): `POST /api/plugins/store-inspect` downloads and checks the
 * package, the install dialog (`<plugin-install-dialog>` in this element's shadow root) shows what
 * the package itself says (id, name, version, its permissions with the ones the store listing did
 * not show marked, its signer or "unsigned", the store it came from), and only "Install" there
 * sends `POST /api/plugins/store-install` with the package's SHA-256 and consent to exactly those
 * permissions; `plugin-store-installed` then tells the launcher, which sets `installed`. Without
 * `backend`, "Install" fires `plugin-store-install` and the launcher runs the same two steps
 * itself, listing the slug in `busySlugs` meanwhile (its buttons are disabled and say
 * "Installing…"). When the store cannot be reached or answers an error, the message (the
 * registry's own when it sent one) is shown with "Retry". Registry strings are only ever set as
 * text, never as HTML.
 *
 * Given `backend` (the launcher's local backend), the element reads the launcher's store sources
 * instead of `registry-url` (decisions section 8): `GET /api/registries` says which sources are
 * usable, and the catalog is read from the active one, moving at once to the next usable source on
 * a timeout, a 5xx or no answer. A line above the list names the source the catalog came from (its
 * host, "backup" when it is not the primary, its plugin count); the status is read again after
 * every catalog load. When no source is usable the element shows "Store unavailable:" with each
 * source's reason and "Retry" (`POST /api/registries/retry`, then the catalog again) in place of
 * the catalog, and install and update buttons are disabled.
 *
 * Keyboard: each card's name is a button (Tab reaches it, Enter or Space opens the detail), followed
 * by its install button. Escape or "Close" closes the detail and returns focus to the card.
 *
 * @fires plugin-store-install - `CustomEvent<{slug: string, version: string, id: string}>`: "Install" was chosen without `backend`; `version` is the latest version.
 * @fires plugin-store-installed - `CustomEvent<{id: string, slug: string, version: string, plugin: PluginInfo}>`: with `backend`, the user confirmed the install dialog and the package was installed (it runs after a restart); set `installed` again.
 * @fires plugin-store-install-failed - `CustomEvent<{id: string, slug: string, code: string, message: string}>`: with `backend`, the package was refused (also shown under the button, or in the dialog).
 * @fires plugin-updated - `CustomEvent<{id: string, slug: string, version: string, plugin: PluginInfo}>`: an update was installed (it runs after a restart); set `installed` again.
 * @fires plugin-update-failed - `CustomEvent<{id: string, slug: string, action: 'update', code: string, message: string}>`: an update failed (the message is also shown under the button).
 * @attr registry-url - The registry's API root, such as `https://store.example/api/v1` (unused when `backend` is set).
 * @attr page-size - Plugins per page, 1 to 50 (default 12).
 * @csspart toolbar - The row of search, category and sort.
 * @csspart search - The search form (`role="search"`).
 * @csspart search-input - The search box.
 * @csspart category-select - The category filter.
 * @csspart sort-select - The sort order.
 * @csspart count - The result count (a polite live region).
 * @csspart list - The `<ul>` of cards.
 * @csspart card - One plugin card (`data-slug`, `data-plugin-id`, `aria-busy` while installing).
 * @csspart icon - The icon box of a card or of the detail (`data-kind` is `image` or `initial`).
 * @csspart name - The plugin name of a card.
 * @csspart open-button - The button on a card's name that opens the detail.
 * @csspart version - The latest version of a card.
 * @csspart description - The description of a card (clamped to three lines).
 * @csspart tags - The tag list of a card.
 * @csspart tag - One tag.
 * @csspart downloads - The downloads count.
 * @csspart rating - The rating (stars; its accessible name says the average and count).
 * @csspart action-button - A card's install button (`data-action` is `install`, `update`, `installed`, `pending` (updated, restart to apply) or `unavailable`).
 * @csspart update-error - The message of a failed install or update under its button (`role="alert"`).
 * @csspart install-dialog - The `<plugin-install-dialog>` of a store install (with `backend`).
 * @csspart update-consent - The consent dialog of an update's added permissions.
 * @csspart consent-permissions - Its `<plugin-permission-list>`.
 * @csspart consent-allow-button - "Allow and update".
 * @csspart consent-cancel-button - "Cancel".
 * @csspart empty - Shown when no plugin matches.
 * @csspart clear-button - "Clear search and filters" in the empty state.
 * @csspart loading - The first load's progress text.
 * @csspart error - The error box (`role="alert"`) of the list or of the detail.
 * @csspart retry-button - "Retry" in an error box.
 * @csspart source-status - The line naming the source the catalog comes from (`data-source` is `primary` or `backup`; only with `backend`).
 * @csspart source-host - The source's host in that line.
 * @csspart source-backup - The "backup" badge of a source that is not the primary.
 * @csspart store-unavailable - The disabled state when no source is usable (`role="alert"`).
 * @csspart source-problems - Its list of sources and why each cannot be used.
 * @csspart source-problem - One source's reason (`data-url`).
 * @csspart retry-sources-button - Its "Retry": asks the backend to try every source again, then loads the catalog.
 * @csspart pagination - The page navigation.
 * @csspart previous-button - "Previous".
 * @csspart next-button - "Next".
 * @csspart page-status - "Page n of m".
 * @csspart detail - The native `<dialog>` of the detail panel.
 * @csspart detail-title - The plugin name in the detail.
 * @csspart close-button - The detail's "Close" button.
 * @csspart detail-action-button - The detail's install button (`data-action` as on cards).
 * @csspart permissions - The `<plugin-permission-list>` of the latest version.
 * @csspart versions - The list of versions, newest first.
 * @csspart version-entry - One version (`data-version`).
 * @csspart changelog - A version's changelog, its line breaks kept.
 * @cssprop --background - Page background behind the cards (theme token, `H S% L%`).
 * @cssprop --foreground - Text (theme token).
 * @cssprop --card - Card background (theme token).
 * @cssprop --card-foreground - Card text (theme token).
 * @cssprop --popover - Detail panel background (theme token).
 * @cssprop --popover-foreground - Detail panel text (theme token).
 * @cssprop --primary - "Install" and "Update" buttons (theme token).
 * @cssprop --primary-foreground - Text on primary (theme token).
 * @cssprop --secondary - Other buttons and tags (theme token).
 * @cssprop --secondary-foreground - Text on secondary (theme token).
 * @cssprop --muted - Icon box background (theme token).
 * @cssprop --muted-foreground - Secondary text (theme token).
 * @cssprop --accent - Hovered card border (theme token).
 * @cssprop --border - Borders (theme token).
 * @cssprop --input - Search and select borders (theme token).
 * @cssprop --destructive - Error colour (theme token).
 * @cssprop --ring - Focus ring (theme token).
 * @cssprop --chart-4 - Star colour (theme token).
 * @cssprop --plugin-risk-normal - Normal-risk permission colour, passed to `<plugin-permission-list>`.
 * @cssprop --plugin-risk-warning - Warning-risk permission colour.
 * @cssprop --plugin-risk-danger - Danger-risk permission colour.
 *
 * @tagname plugin-store
 */
export class PluginStore extends LitElement {
  static override styles = [...storeStyles, updateConsentStyles];

  /** The registry's API root (`…/api/v1`). Changing it starts over on page 1. Unused when `backend` is set. */
  @property({ attribute: 'registry-url' }) accessor registryUrl = '';

  /**
   * The launcher's local backend (address and token). When set, the catalog comes from the
   * launcher's store sources (`GET /api/registries`) with fallback, not from `registry-url`.
   * Setting another object starts over on page 1.
   */
  @property({ attribute: false }) accessor backend: LauncherBackendSource | undefined;

  /** The plugins the launcher has installed: their cards say "Installed" or "Update to x.y.z". */
  @property({ attribute: false }) accessor installed: readonly StoreInstalledPlugin[] = [];

  /** Slugs the launcher is installing now: their buttons are disabled and say "Installing…". */
  @property({ attribute: false }) accessor busySlugs: readonly string[] = [];

  /** With `backend`: a store install also enables the plugin (from the next restart). */
  @property({ attribute: 'install-enables', type: Boolean }) accessor installEnables = false;

  /**
   * The launcher's update flow (shared with `<plugin-manager>`): installed plugins are offered
   * "Update to x.y.z" only when its list names them. Without it, installed plugins say "Installed".
   */
  @property({ attribute: false }) accessor updates: PluginUpdates | undefined;

  /** Plugins per page, 1 to 50 (the protocol's range; other values use 12). */
  @property({ attribute: 'page-size', type: Number }) accessor pageSize = STORE_PAGE_SIZE;

  /** The search box's text (searched after the debounce). */
  @state() private accessor searchText = '';
  /** The search text of the shown (or loading) results. */
  @state() private accessor searchQuery = '';
  @state() private accessor category = '';
  @state() private accessor sort: StoreSort = 'downloads';
  @state() private accessor page = 1;
  /** Icon URLs that failed to load: shown as the initial instead. */
  @state() private accessor brokenIcons: ReadonlySet<string> = new Set();
  /** True while the disabled state's "Retry" runs. */
  @state() private accessor retryingSources = false;

  @query('dialog[part~="detail"]') private accessor dialog: HTMLDialogElement | null = null;

  private readonly subscription = new UpdatesSubscription(this);
  private readonly consent = new UpdateConsentPrompt(this);
  private readonly installFlow = new StoreInstallFlow(this, {
    backend: () => this.backend,
    enables: () => this.installEnables,
    installed: (target, plugin) =>
      this.emit<PluginStoreInstalledDetail>('plugin-store-installed', { id: plugin.id, slug: target.slug, version: plugin.version, plugin }),
    failed: (target, code, message) =>
      this.emit<PluginStoreInstallFailedDetail>('plugin-store-install-failed', { id: target.id, slug: target.slug, code, message }),
  });

  /** The launcher's store sources, when `backend` is set. */
  private readonly sources = new StoreSources({ backend: () => this.backend, changed: () => this.requestUpdate() });

  /** The list, the detail, the categories seen and their requests. */
  private readonly data = new StoreData(this, {
    catalog: () => {
      if (this.backend) return this.sources;
      const url = this.registryUrl.trim();
      return url === '' ? null : directCatalog(url);
    },
    listQuery: () => ({ q: this.searchQuery, category: this.category, sort: this.sort, page: this.page, pageSize: this.effectivePageSize }),
    pageOutOfRange: (last) => (this.page = last),
    // The status follows every load, so a fallback or a source going away shows at once.
    listSettled: () => {
      // A failed status read changes nothing shown; the next catalog load reports it.
      if (this.backend) this.sources.refresh().catch(() => undefined);
    },
  });
  /** The detail the dialog was last put in step with. */
  private syncedDetail: DetailState | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Where focus goes when the detail closes: the card of this slug, else `returnFocus`. */
  private returnSlug: string | null = null;
  private returnFocus: HTMLElement | null = null;
  /** The pagination button just used, to keep focus in the navigation when it becomes disabled. */
  private paginationUsed: 'previous-button' | 'next-button' | null = null;

  /** Loads the current page again (what "Retry" does). */
  reload(): void {
    this.data.loadList();
  }

  /**
   * The disabled state's "Retry": asks the backend to try every source again
   * (`POST /api/registries/retry`: it forgets timeouts and a source marked unavailable), then loads
   * the catalog. Without `backend` it only loads the catalog again.
   */
  async retrySources(): Promise<void> {
    if (this.retryingSources) return;
    if (this.backend) {
      this.retryingSources = true;
      try {
        await this.sources.retry();
      } catch {
        // The catalog load below shows why (the backend's own message).
      } finally {
        this.retryingSources = false;
      }
    }
    this.data.loadList();
  }

  /** Opens the detail panel of the plugin `slug` (as choosing its card does). */
  showDetail(slug: string): void {
    const summary = this.data.shownItems().find((item) => item.slug === slug);
    this.openDetail(slug, summary);
  }

  /** Closes the detail panel, if open, and returns focus to its card. */
  closeDetail(): void {
    if (!this.data.detail) return;
    this.data.closeDetail();
  }

  override disconnectedCallback(): void {
    // The data controller aborts its requests (and runs them again on reconnect).
    super.disconnectedCallback();
    clearTimeout(this.searchTimer);
    this.searchTimer = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('updates')) this.subscription.follow(this.updates);
    if (changed.has('backend')) this.sources.reset();
    if (changed.has('registryUrl') || changed.has('backend')) {
      this.data.forgetCategories();
      this.category = '';
      this.page = 1;
      if (this.data.detail) this.closeDetail();
    }
    if (changed.has('registryUrl') || changed.has('backend') || changed.has('pageSize')) {
      if (changed.has('pageSize')) this.page = 1;
      this.data.loadList();
    }
  }

  protected override updated(): void {
    if (this.data.detail !== this.syncedDetail) {
      this.syncedDetail = this.data.detail;
      this.syncDialog();
    }
    const used = this.paginationUsed;
    if (used && this.data.list.status !== 'loading') {
      // The button just used may now be disabled (first or last page): move focus to the other one.
      this.paginationUsed = null;
      const button = this.renderRoot.querySelector<HTMLButtonElement>(`[part="${used}"]`);
      const other = this.renderRoot.querySelector<HTMLButtonElement>(`[part="${used === 'next-button' ? 'previous-button' : 'next-button'}"]`);
      const active = deepActiveElement();
      const lost = active === null || active === document.body || active === button;
      if (button?.disabled && lost && other && !other.disabled) other.focus();
    }
  }

  /** `pageSize` when it is in the protocol's range (1 to 50), else {@link STORE_PAGE_SIZE}. */
  private get effectivePageSize(): number {
    const size = this.pageSize;
    return Number.isInteger(size) && size >= 1 && size <= 50 ? size : STORE_PAGE_SIZE;
  }

  private emit<T>(name: string, detail: T): void {
    this.dispatchEvent(new CustomEvent<T>(name, { detail, bubbles: true, composed: true }));
  }

  private openDetail(slug: string, summary: StorePlugin | undefined): void {
    if (!this.data.detail) {
      this.returnFocus = deepActiveElement();
      this.returnSlug = slug;
    }
    this.data.loadDetail(slug, summary);
  }

  // The detail dialog.

  private syncDialog(): void {
    const dialog = this.dialog;
    if (!dialog?.isConnected) return;
    if (this.data.detail && !dialog.open) {
      dialog.showModal();
    } else if (!this.data.detail && dialog.open) {
      dialog.close();
      this.restoreFocus();
    }
  }

  private restoreFocus(): void {
    const slug = this.returnSlug;
    const fallback = this.returnFocus;
    this.returnSlug = null;
    this.returnFocus = null;
    const card = slug === null ? undefined : this.cardButton(slug);
    if (card) card.focus();
    else if (fallback?.isConnected) fallback.focus();
    else this.renderRoot.querySelector<HTMLElement>('[part="search-input"]')?.focus();
  }

  private cardButton(slug: string): HTMLElement | undefined {
    const card = [...this.renderRoot.querySelectorAll<HTMLElement>('li[data-slug]')].find((li) => li.dataset.slug === slug);
    return card?.querySelector<HTMLElement>('[part~="open-button"]') ?? undefined;
  }

  /** Escape: the native `cancel` event. */
  private onDialogCancel(event: Event): void {
    event.preventDefault();
    this.closeDetail();
  }

  /** The browser may close a modal dialog on its own (a repeated Escape); keep `detail` in step. */
  private onDialogClose(): void {
    if (!this.data.detail || this.dialog?.open) return;
    this.data.closeDetail();
    this.restoreFocus();
  }

  /** A click on the backdrop (outside the dialog's box) closes it. */
  private onDialogClick(event: MouseEvent): void {
    const dialog = this.dialog;
    if (!dialog || event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) this.closeDetail();
  }

  // Toolbar and pages.

  private onSearchInput(event: Event): void {
    this.searchText = (event.target as HTMLInputElement).value;
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.runSearch(false), STORE_SEARCH_DEBOUNCE_MS);
  }

  private onSearchSubmit(event: Event): void {
    event.preventDefault();
    this.runSearch(true);
  }

  private runSearch(always: boolean): void {
    clearTimeout(this.searchTimer);
    this.searchTimer = undefined;
    const text = this.searchText.trim();
    if (!always && text === this.searchQuery) return;
    this.searchQuery = text;
    this.page = 1;
    this.data.loadList();
  }

  private onCategoryChange(event: Event): void {
    this.category = (event.target as HTMLSelectElement).value;
    this.page = 1;
    this.data.loadList();
  }

  private onSortChange(event: Event): void {
    const value = (event.target as HTMLSelectElement).value;
    if (!isSort(value)) return;
    this.sort = value;
    this.page = 1;
    this.data.loadList();
  }

  private clearFilters(): void {
    clearTimeout(this.searchTimer);
    this.searchText = '';
    this.searchQuery = '';
    this.category = '';
    this.page = 1;
    this.data.loadList();
    this.renderRoot.querySelector<HTMLElement>('[part="search-input"]')?.focus();
  }

  private goToPage(page: number, used: 'previous-button' | 'next-button'): void {
    this.page = page;
    this.paginationUsed = used;
    this.data.loadList();
  }

  // Install actions.

  private install(plugin: StorePlugin, action: Action): void {
    if (action.kind !== 'install' && action.kind !== 'update') return;
    if (this.busySlugs.includes(plugin.slug) || this.installFlow.busySlugs().includes(plugin.slug)) return;
    if (action.kind === 'update') {
      void this.runUpdate(plugin);
      return;
    }
    const target: StoreInstallTarget = { slug: plugin.slug, version: action.version, id: plugin.id };
    if (this.backend) void this.installFlow.start(target);
    else this.emit<PluginStoreInstallDetail>('plugin-store-install', target);
  }

  /** The shared update flow: consent for added permissions, then the backend installs the listed version. */
  private async runUpdate(plugin: StorePlugin): Promise<void> {
    const updates = this.updates;
    if (!updates) return;
    const result = await updates.update(plugin.id, (request) => this.consent.ask(request, plugin.name || plugin.id));
    if (result.kind === 'updated') {
      this.emit<PluginStoreUpdatedDetail>('plugin-updated', { id: plugin.id, slug: plugin.slug, version: result.version, plugin: result.plugin });
    } else if (result.kind === 'failed') {
      this.emit<PluginStoreUpdateFailedDetail>('plugin-update-failed', {
        id: plugin.id,
        slug: plugin.slug,
        action: 'update',
        code: result.code,
        message: result.message,
      });
    }
  }

  private updating(plugin: StorePlugin): boolean {
    const phase = this.updates?.progressOf(plugin.id)?.phase;
    return phase === 'installing' || phase === 'consent';
  }

  private updateProblem(plugin: StorePlugin): string | undefined {
    const progress = this.updates?.progressOf(plugin.id);
    if (progress?.phase === 'failed' && progress.action === 'update') return `The update failed: ${progress.message}`;
    const installProblem = this.installFlow.problem(plugin.slug);
    return installProblem === undefined ? undefined : `The install failed: ${installProblem}`;
  }

  // Rendering: the views draw, the element keeps the state and handles the events.

  override render() {
    const listState = this.data.list;
    const listDisabled = listState.status === 'error' && listState.failure.storeDisabled === true;
    const storeDisabled = listDisabled || (this.backend !== undefined && this.sources.noneUsable());
    const shared = {
      busySlugs: [...this.busySlugs, ...this.installFlow.busySlugs()],
      storeDisabled,
      brokenIcons: this.brokenIcons,
      iconFailed: (src: string) => (this.brokenIcons = new Set([...this.brokenIcons, src])),
      actionOf: (plugin: StorePlugin) => actionOf(plugin, this.installed, this.updateState()),
      install: (plugin: StorePlugin, action: Action) => this.install(plugin, action),
      updating: (plugin: StorePlugin) => this.updating(plugin),
      updateProblem: (plugin: StorePlugin) => this.updateProblem(plugin),
    };
    const list: ListView = {
      ...shared,
      list: this.data.list,
      categories: this.data.categories,
      searchText: this.searchText,
      searchQuery: this.searchQuery,
      category: this.category,
      sort: this.sort,
      page: this.page,
      pageSize: this.effectivePageSize,
      searchInput: (event) => this.onSearchInput(event),
      searchSubmit: (event) => this.onSearchSubmit(event),
      categoryChange: (event) => this.onCategoryChange(event),
      sortChange: (event) => this.onSortChange(event),
      clearFilters: () => this.clearFilters(),
      goToPage: (page, used) => this.goToPage(page, used),
      retry: () => this.reload(),
      cardClick: (event, plugin) => this.onCardClick(event, plugin),
    };
    const detail = this.data.detail;
    const catalog = storeDisabled
      ? renderUnavailable({
          problems: this.sources.problems(),
          message: listDisabled ? listState.failure.message : this.sources.disabledMessage(),
          retrying: this.retryingSources,
          retry: () => void this.retrySources(),
        })
      : renderList(list);
    return html`${this.backend && !storeDisabled ? renderSourceLine(this.sources.shown()) : nothing} ${renderToolbar(list)} ${storeDisabled ? nothing : renderCount(this.data.list)} ${catalog}
      <dialog
        part="detail"
        aria-labelledby="detail-title"
        @cancel=${this.onDialogCancel}
        @close=${this.onDialogClose}
        @click=${this.onDialogClick}
        @keydown=${(event: KeyboardEvent) => keepFocusInDialog(event, event.currentTarget as HTMLElement)}
      >
        ${
          detail
            ? renderDetail({ ...shared, state: detail, close: () => this.closeDetail(), retry: () => this.data.loadDetail(detail.slug, detail.summary) })
            : nothing
        }
      </dialog>
      ${this.consent.render()} ${this.installFlow.render()}`;
  }

  /** What the update flow says about installed plugins, for their buttons. */
  private updateState(): InstalledUpdateState | undefined {
    const updates = this.updates;
    if (!updates) return undefined;
    return {
      offered: (id) => updates.updateFor(id)?.latestVersion,
      pending: (id) => updates.pendingRestart(id)?.version,
    };
  }

  private onCardClick(event: MouseEvent, plugin: StorePlugin): void {
    // The install button does its own thing; anything else on the card opens the detail.
    const fromAction = event.composedPath().some((node) => node instanceof HTMLElement && node.matches('[part~="action-button"]'));
    if (fromAction) return;
    this.openDetail(plugin.slug, plugin);
  }
}
