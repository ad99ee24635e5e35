import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { initialOf, type CardIcon } from './plugin-manager/card-icon.js';
import {
  compareVersions,
  formatBytes,
  formatCount,
  formatDate,
  ratingLabel,
  ratingStars,
  storeIcon,
} from './plugin-store/format.js';
import {
  STORE_SORTS,
  StoreRequestError,
  fetchStorePage,
  fetchStorePlugin,
  type StorePage,
  type StorePlugin,
  type StorePluginDetail,
  type StoreSort,
  type StoreVersion,
} from './plugin-store/registry-client.js';
import { buttonStyles, cardIconStyles, dialogStyles } from './shared-styles.js';

export type { StorePage, StorePlugin, StorePluginDetail, StoreSort, StoreVersion } from './plugin-store/registry-client.js';
export { STORE_SORTS } from './plugin-store/registry-client.js';

/** A plugin the launcher has installed, as it passes it in `installed`. */
export interface StoreInstalledPlugin {
  /** The manifest id (the Registry Plugin object's `id`). */
  readonly id: string;
  /** The installed version. */
  readonly version: string;
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

/** The page size the store asks for unless `page-size` says otherwise. */
export const STORE_PAGE_SIZE = 12;

/** How long typing must pause before the search runs, in milliseconds. */
export const STORE_SEARCH_DEBOUNCE_MS = 300;

const SORT_LABEL: Readonly<Record<StoreSort, string>> = {
  downloads: 'Most downloaded',
  rating: 'Highest rated',
  updated: 'Recently updated',
  name: 'Name (A–Z)',
  newest: 'Newest',
};

/** Why a list or detail request failed, as shown. */
interface Failure {
  readonly title: string;
  readonly message: string;
}

type ListState =
  | { readonly status: 'idle' }
  | { readonly status: 'loading'; readonly previous?: StorePage }
  | { readonly status: 'ready'; readonly page: StorePage }
  | { readonly status: 'error'; readonly failure: Failure };

interface DetailState {
  readonly slug: string;
  /** The card's data, shown while the detail loads. */
  readonly summary?: StorePlugin;
  readonly status: 'loading' | 'ready' | 'error';
  readonly detail?: StorePluginDetail;
  readonly failure?: Failure;
}

/** What a plugin's install button offers. */
type Action =
  | { readonly kind: 'install' | 'update'; readonly version: string }
  | { readonly kind: 'installed'; readonly version: string }
  | { readonly kind: 'unavailable' };

function failureOf(error: unknown): Failure {
  if (error instanceof StoreRequestError) {
    if (error.kind === 'unreachable') return { title: 'The store cannot be reached', message: error.message };
    if (error.kind === 'registry') return { title: 'The store reported an error', message: error.message };
    return { title: 'The store’s answer was not understood', message: error.message };
  }
  return { title: 'Something went wrong', message: error instanceof Error ? error.message : String(error) };
}

/** The element focused now, looking through open shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

function isSort(value: string): value is StoreSort {
  return (STORE_SORTS as readonly string[]).includes(value);
}

/**
 * A store browser for a registry speaking the open registry protocol (docs/registry.md): a search
 * box (runs 300 ms after typing stops, or on Enter), a category filter (the categories of every
 * plugin seen so far), a sort order and pages of plugin cards (12 a page, "Previous"/"Next"). Each
 * card shows the plugin's icon (`iconUrl` when it is `https:` or on the page's origin, else the
 * name's initial), name, latest version, a clamped description, tags, downloads (`1.2k`), rating
 * and a button: "Install", "Update to x.y.z" (when `installed` holds an older version) or
 * "Installed". Choosing a card opens a modal detail panel (`GET /plugins/<slug>`) with the
 * description, the latest version's permissions and their risk colours (`<plugin-permission-list>`),
 * and every published version, newest first, with its date and changelog.
 *
 * The element reads the registry itself (`GET /plugins`, `GET /plugins/<slug>`; the protocol
 * allows any origin) and aborts a request whose answer is no longer wanted. It never installs:
 * "Install" and "Update" fire `plugin-store-install`; the launcher installs through its backend,
 * lists the slug in `busySlugs` meanwhile (its buttons are disabled and say "Installing…"), then
 * sets `installed`. When the store cannot be reached or answers an error, the message (the
 * registry's own when it sent one) is shown with "Retry". Registry strings are only ever set as
 * text, never as HTML.
 *
 * Keyboard: each card's name is a button (Tab reaches it, Enter or Space opens the detail), followed
 * by its install button. Escape or "Close" closes the detail and returns focus to the card.
 *
 * @fires plugin-store-install - `CustomEvent<{slug: string, version: string, id: string}>`: "Install" or "Update" was chosen; `version` is the latest version.
 * @attr registry-url - The registry's API root, such as `https://store.example/api/v1`.
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
 * @csspart action-button - A card's install button (`data-action` is `install`, `update`, `installed` or `unavailable`).
 * @csspart empty - Shown when no plugin matches.
 * @csspart clear-button - "Clear search and filters" in the empty state.
 * @csspart loading - The first load's progress text.
 * @csspart error - The error box (`role="alert"`) of the list or of the detail.
 * @csspart retry-button - "Retry" in an error box.
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
  static override styles = [cardIconStyles, buttonStyles, dialogStyles, css`
    :host {
      --_dialog-width: 42rem;
      display: block;
      color: hsl(var(--foreground, 0 0% 10%));
    }
    [hidden] {
      display: none !important;
    }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      margin: -1px;
      padding: 0;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
      border: 0;
    }
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem 0.75rem;
      align-items: end;
      margin-bottom: 0.75rem;
    }
    form[role='search'] {
      flex: 1 1 16rem;
      display: flex;
    }
    label {
      display: grid;
      gap: 0.2rem;
      font-size: 0.8rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
    /* The controls are drawn entirely from the theme tokens, whatever the page's color-scheme:
       WebKitGTK draws a native select in the colours of the page's scheme (light without one),
       under the themed text colour, which is unreadable on a dark theme. */
    input,
    select {
      font: inherit;
      font-size: 0.9rem;
      padding: 0.4rem 0.6rem;
      border-radius: 0.5rem;
      border: 1px solid hsl(var(--input, 0 0% 80%));
      background-color: hsl(var(--background, 0 0% 100%));
      color: hsl(var(--foreground, 0 0% 10%));
    }
    input {
      flex: 1;
      min-width: 0;
    }
    input::placeholder {
      color: hsl(var(--muted-foreground, 0 0% 40%));
      opacity: 1;
    }
    /* No native widget: a chevron in the text colour (two gradient triangles) replaces its arrow. */
    select {
      appearance: none;
      -webkit-appearance: none;
      padding-right: 2rem;
      background-image:
        linear-gradient(45deg, transparent 50%, currentColor 50%),
        linear-gradient(135deg, currentColor 50%, transparent 50%);
      background-position:
        right 1rem center,
        right 0.7rem center;
      background-size: 0.3rem 0.3rem;
      background-repeat: no-repeat;
    }
    /* The open list: engines that style it (Chromium, Firefox) take these; others draw a menu in the page's scheme. */
    option {
      background-color: hsl(var(--popover, 0 0% 100%));
      color: hsl(var(--popover-foreground, 0 0% 10%));
    }
    input:focus-visible,
    select:focus-visible,
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 217 91% 60%));
      outline-offset: 2px;
    }
    .count {
      margin: 0 0 0.75rem;
      font-size: 0.875rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
      min-height: 1.25em;
    }
    ul.list {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr));
      gap: 0.75rem;
    }
    ul.list[aria-busy='true'] {
      opacity: 0.6;
    }
    .card {
      display: flex;
      flex-direction: column;
      gap: 0.5rem;
      padding: 0.75rem 1rem;
      border: 1px solid hsl(var(--border, 0 0% 85%));
      border-radius: 0.75rem;
      background: hsl(var(--card, 0 0% 100%));
      color: hsl(var(--card-foreground, 0 0% 10%));
      cursor: pointer;
      min-width: 0;
    }
    .card:hover {
      border-color: hsl(var(--accent-foreground, 222 47% 40%) / 0.5);
    }
    /* Busy: a primary border and a progress cursor (dimming the text would lose contrast). */
    .card[aria-busy='true'] {
      border-color: hsl(var(--primary, 222 47% 11%));
      cursor: progress;
    }
    .head {
      display: grid;
      grid-template-columns: auto 1fr;
      gap: 0.75rem;
      align-items: center;
    }
    .title {
      min-width: 0;
    }
    h3 {
      margin: 0;
      font-size: 1rem;
      overflow-wrap: anywhere;
    }
    .open {
      all: unset;
      cursor: pointer;
      font-weight: 600;
      border-radius: 0.25rem;
    }
    .open:hover {
      text-decoration: underline;
    }
    .version {
      display: block;
      color: hsl(var(--muted-foreground, 0 0% 40%));
      font-size: 0.8rem;
    }
    .description {
      margin: 0;
      font-size: 0.875rem;
      overflow: hidden;
      display: -webkit-box;
      -webkit-box-orient: vertical;
      -webkit-line-clamp: 3;
      line-clamp: 3;
      overflow-wrap: anywhere;
    }
    .tags {
      list-style: none;
      margin: 0;
      padding: 0;
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem;
    }
    .tags li {
      padding: 0.05rem 0.45rem;
      border-radius: 999px;
      font-size: 0.75rem;
      background: hsl(var(--secondary, 210 40% 94%));
      color: hsl(var(--secondary-foreground, 222 47% 11%));
      overflow-wrap: anywhere;
    }
    .meta {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem 0.75rem;
      font-size: 0.8rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
    .stars {
      color: hsl(var(--chart-4, 43 74% 49%));
      letter-spacing: 0.05em;
    }
    .foot {
      margin-top: auto;
      display: flex;
      justify-content: flex-end;
    }
    button[data-action='install'],
    button[data-action='update'] {
      background: hsl(var(--primary, 222 47% 11%));
      color: hsl(var(--primary-foreground, 0 0% 98%));
      border-color: transparent;
    }
    button[data-action='installed'] {
      background: transparent;
    }
    button[data-action='installed']:disabled {
      opacity: 0.8;
    }
    .empty,
    .loading {
      margin: 0;
      padding: 1rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
    .empty p {
      margin: 0 0 0.5rem;
    }
    .error {
      padding: 0.75rem 1rem;
      border-radius: 0.5rem;
      border: 1px solid hsl(var(--destructive, 0 84% 60%));
      color: hsl(var(--destructive, 0 72% 45%));
      overflow-wrap: anywhere;
    }
    .error p {
      margin: 0 0 0.5rem;
    }
    .error .problem {
      color: hsl(var(--foreground, 0 0% 10%));
    }
    nav {
      display: flex;
      gap: 0.75rem;
      align-items: center;
      justify-content: center;
      margin-top: 1rem;
      font-size: 0.875rem;
    }
    .detail-head {
      display: grid;
      grid-template-columns: auto 1fr auto;
      gap: 0.75rem;
      align-items: start;
      margin-bottom: 0.75rem;
    }
    h2 {
      margin: 0;
      font-size: 1.25rem;
      overflow-wrap: anywhere;
    }
    .sub {
      margin: 0.15rem 0 0;
      font-size: 0.85rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
      overflow-wrap: anywhere;
    }
    .mono {
      font-family: ui-monospace, monospace;
      font-size: 0.85em;
    }
    .detail-description {
      margin: 0 0 0.75rem;
      white-space: pre-line;
      overflow-wrap: anywhere;
    }
    .detail-meta {
      margin-bottom: 0.75rem;
    }
    .detail-actions {
      display: flex;
      justify-content: flex-end;
      margin-bottom: 1rem;
    }
    h3.section {
      margin: 1rem 0 0.5rem;
      font-size: 1rem;
    }
    ol.versions {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.5rem;
    }
    ol.versions li {
      padding: 0.5rem 0.75rem;
      border: 1px solid hsl(var(--border, 0 0% 85%));
      border-radius: 0.5rem;
    }
    .version-line {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem 0.75rem;
      align-items: baseline;
      font-size: 0.85rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
    .version-line strong {
      font-size: 0.95rem;
      color: hsl(var(--popover-foreground, 0 0% 10%));
    }
    .changelog {
      margin: 0.35rem 0 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      font-size: 0.875rem;
    }
    .no-changelog {
      margin: 0.35rem 0 0;
      font-size: 0.85rem;
      font-style: italic;
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
  `];

  /** The registry's API root (`…/api/v1`). Changing it starts over on page 1. */
  @property({ attribute: 'registry-url' }) accessor registryUrl = '';

  /** The plugins the launcher has installed: their cards say "Installed" or "Update to x.y.z". */
  @property({ attribute: false }) accessor installed: readonly StoreInstalledPlugin[] = [];

  /** Slugs the launcher is installing now: their buttons are disabled and say "Installing…". */
  @property({ attribute: false }) accessor busySlugs: readonly string[] = [];

  /** Plugins per page, 1 to 50 (the protocol's range; other values use 12). */
  @property({ attribute: 'page-size', type: Number }) accessor pageSize = STORE_PAGE_SIZE;

  /** The search box's text (searched after the debounce). */
  @state() private accessor searchText = '';
  /** The search text of the shown (or loading) results. */
  @state() private accessor searchQuery = '';
  @state() private accessor category = '';
  @state() private accessor sort: StoreSort = 'downloads';
  @state() private accessor page = 1;
  @state() private accessor list: ListState = { status: 'idle' };
  /** Categories of every plugin seen since `registryUrl` was set, by lower-case key. */
  @state() private accessor categories: ReadonlyMap<string, string> = new Map();
  @state() private accessor detail: DetailState | null = null;
  /** Icon URLs that failed to load: shown as the initial instead. */
  @state() private accessor brokenIcons: ReadonlySet<string> = new Set();

  @query('dialog') private accessor dialog: HTMLDialogElement | null = null;

  private listRequest: AbortController | null = null;
  private detailRequest: AbortController | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Where focus goes when the detail closes: the card of this slug, else `returnFocus`. */
  private returnSlug: string | null = null;
  private returnFocus: HTMLElement | null = null;
  /** The pagination button just used, to keep focus in the navigation when it becomes disabled. */
  private paginationUsed: 'previous-button' | 'next-button' | null = null;
  /** A request was cut short by disconnecting: run it again on reconnect. */
  private resumeOnConnect = false;

  /** Loads the current page again (what "Retry" does). */
  reload(): void {
    this.loadList();
  }

  /** Opens the detail panel of the plugin `slug` (as choosing its card does). */
  showDetail(slug: string): void {
    const summary = this.shownItems().find((item) => item.slug === slug);
    this.openDetail(slug, summary);
  }

  /** Closes the detail panel, if open, and returns focus to its card. */
  closeDetail(): void {
    if (!this.detail) return;
    this.detailRequest?.abort();
    this.detailRequest = null;
    this.detail = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.resumeOnConnect) {
      this.resumeOnConnect = false;
      this.loadList();
      if (this.detail) this.loadDetail(this.detail.slug, this.detail.summary);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.searchTimer);
    this.searchTimer = undefined;
    if (this.listRequest || this.detailRequest) this.resumeOnConnect = true;
    this.listRequest?.abort();
    this.listRequest = null;
    this.detailRequest?.abort();
    this.detailRequest = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('registryUrl')) {
      this.categories = new Map();
      this.category = '';
      this.page = 1;
      if (this.detail) this.closeDetail();
    }
    if (changed.has('registryUrl') || changed.has('pageSize')) {
      if (changed.has('pageSize')) this.page = 1;
      this.loadList();
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    // `detail` is private state, which PropertyValues<this> does not name.
    if ((changed as ReadonlyMap<PropertyKey, unknown>).has('detail')) this.syncDialog();
    const used = this.paginationUsed;
    if (used && this.list.status !== 'loading') {
      // The button just used may now be disabled (first or last page): move focus to the other one.
      this.paginationUsed = null;
      const button = this.renderRoot.querySelector<HTMLButtonElement>(`[part="${used}"]`);
      const other = this.renderRoot.querySelector<HTMLButtonElement>(
        `[part="${used === 'next-button' ? 'previous-button' : 'next-button'}"]`,
      );
      const active = deepActiveElement();
      const lost = active === null || active === document.body || active === button;
      if (button?.disabled && lost && other && !other.disabled) other.focus();
    }
  }

  private get effectivePageSize(): number {
    const size = this.pageSize;
    return Number.isInteger(size) && size >= 1 && size <= 50 ? size : STORE_PAGE_SIZE;
  }

  private emit<T>(name: string, detail: T): void {
    this.dispatchEvent(new CustomEvent<T>(name, { detail, bubbles: true, composed: true }));
  }

  // Loading.

  private loadList(): void {
    this.listRequest?.abort();
    this.listRequest = null;
    const registryUrl = this.registryUrl.trim();
    if (registryUrl === '') {
      this.list = { status: 'idle' };
      return;
    }
    const controller = new AbortController();
    this.listRequest = controller;
    const query = {
      q: this.searchQuery,
      category: this.category,
      sort: this.sort,
      page: this.page,
      pageSize: this.effectivePageSize,
    };
    const shown = this.list;
    const previous = shown.status === 'ready' ? shown.page : shown.status === 'loading' ? shown.previous : undefined;
    this.list = previous ? { status: 'loading', previous } : { status: 'loading' };
    fetchStorePage(registryUrl, query, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        this.listRequest = null;
        const last = pageCount(page.total, query.pageSize);
        if (page.items.length === 0 && page.total > 0 && query.page > last) {
          // Fewer plugins than when the page was chosen: show the last page there is.
          this.page = last;
          this.loadList();
          return;
        }
        this.rememberCategories(page.items);
        this.list = { status: 'ready', page };
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.listRequest = null;
        this.list = { status: 'error', failure: failureOf(error) };
      },
    );
  }

  private rememberCategories(items: readonly StorePlugin[]): void {
    let next: Map<string, string> | null = null;
    for (const { category } of items) {
      if (!category) continue;
      const key = category.toLowerCase();
      if (this.categories.has(key) || next?.has(key)) continue;
      next ??= new Map(this.categories);
      next.set(key, category);
    }
    if (next) this.categories = next;
  }

  private openDetail(slug: string, summary: StorePlugin | undefined): void {
    if (!this.detail) {
      this.returnFocus = deepActiveElement();
      this.returnSlug = slug;
    }
    this.loadDetail(slug, summary);
  }

  private loadDetail(slug: string, summary: StorePlugin | undefined): void {
    this.detailRequest?.abort();
    const controller = new AbortController();
    this.detailRequest = controller;
    this.detail = { slug, ...(summary ? { summary } : {}), status: 'loading' };
    fetchStorePlugin(this.registryUrl, slug, controller.signal).then(
      (detail) => {
        if (controller.signal.aborted) return;
        this.detailRequest = null;
        this.rememberCategories([detail]);
        this.detail = { slug, ...(summary ? { summary } : {}), status: 'ready', detail };
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.detailRequest = null;
        this.detail = { slug, ...(summary ? { summary } : {}), status: 'error', failure: failureOf(error) };
      },
    );
  }

  // The detail dialog.

  private syncDialog(): void {
    const dialog = this.dialog;
    if (!dialog || !dialog.isConnected) return;
    if (this.detail && !dialog.open) {
      dialog.showModal();
    } else if (!this.detail && dialog.open) {
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
    const card = [...this.renderRoot.querySelectorAll<HTMLElement>('li[data-slug]')].find((li) => li.dataset['slug'] === slug);
    return card?.querySelector<HTMLElement>('[part~="open-button"]') ?? undefined;
  }

  /** Escape: the native `cancel` event. */
  private onDialogCancel(event: Event): void {
    event.preventDefault();
    this.closeDetail();
  }

  /** The browser may close a modal dialog on its own (a repeated Escape); keep `detail` in step. */
  private onDialogClose(): void {
    if (!this.detail || this.dialog?.open) return;
    this.detailRequest?.abort();
    this.detailRequest = null;
    this.detail = null;
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

  // Toolbar.

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
    this.loadList();
  }

  private onCategoryChange(event: Event): void {
    this.category = (event.target as HTMLSelectElement).value;
    this.page = 1;
    this.loadList();
  }

  private onSortChange(event: Event): void {
    const value = (event.target as HTMLSelectElement).value;
    if (!isSort(value)) return;
    this.sort = value;
    this.page = 1;
    this.loadList();
  }

  private clearFilters(): void {
    clearTimeout(this.searchTimer);
    this.searchText = '';
    this.searchQuery = '';
    this.category = '';
    this.page = 1;
    this.loadList();
    this.renderRoot.querySelector<HTMLElement>('[part="search-input"]')?.focus();
  }

  private goToPage(page: number, used: 'previous-button' | 'next-button'): void {
    this.page = page;
    this.paginationUsed = used;
    this.loadList();
  }

  // Install actions.

  private actionOf(plugin: StorePlugin): Action {
    const latest = plugin.latestVersion ?? (plugin as Partial<StorePluginDetail>).versions?.[0]?.version;
    const installed = this.installed.find((entry) => entry.id === plugin.id);
    if (installed) {
      if (latest && compareVersions(latest, String(installed.version)) > 0) return { kind: 'update', version: latest };
      return { kind: 'installed', version: String(installed.version) };
    }
    return latest ? { kind: 'install', version: latest } : { kind: 'unavailable' };
  }

  private install(plugin: StorePlugin, action: Action): void {
    if (action.kind !== 'install' && action.kind !== 'update') return;
    if (this.busySlugs.includes(plugin.slug)) return;
    this.emit<PluginStoreInstallDetail>('plugin-store-install', { slug: plugin.slug, version: action.version, id: plugin.id });
  }

  private shownItems(): readonly StorePlugin[] {
    const list = this.list;
    if (list.status === 'ready') return list.page.items;
    if (list.status === 'loading') return list.previous?.items ?? [];
    return [];
  }

  // Rendering.

  override render() {
    return html`${this.renderToolbar()}
      <p class="count" part="count" role="status" aria-live="polite">${this.countText()}</p>
      ${this.renderBody()}
      <dialog
        part="detail"
        aria-labelledby="detail-title"
        @cancel=${this.onDialogCancel}
        @close=${this.onDialogClose}
        @click=${this.onDialogClick}
      >
        ${this.detail ? this.renderDetail(this.detail) : nothing}
      </dialog>`;
  }

  private renderToolbar() {
    const categories = [...this.categories.values()].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
    if (this.category !== '' && !this.categories.has(this.category.toLowerCase())) categories.unshift(this.category);
    return html`<div class="toolbar" part="toolbar">
      <form role="search" part="search" aria-label="Search the store" @submit=${this.onSearchSubmit}>
        <input
          type="search"
          part="search-input"
          aria-label="Search plugins"
          placeholder="Search plugins"
          autocomplete="off"
          spellcheck="false"
          maxlength="200"
          .value=${this.searchText}
          @input=${this.onSearchInput}
        />
      </form>
      <label
        >Category
        <select part="category-select" @change=${this.onCategoryChange}>
          <option value="" ?selected=${this.category === ''}>All categories</option>
          ${categories.map((category) => html`<option .value=${category} ?selected=${category === this.category}>${category}</option>`)}
        </select>
      </label>
      <label
        >Sort by
        <select part="sort-select" @change=${this.onSortChange}>
          ${STORE_SORTS.map((sort) => html`<option value=${sort} ?selected=${sort === this.sort}>${SORT_LABEL[sort]}</option>`)}
        </select>
      </label>
    </div>`;
  }

  private countText(): string {
    const list = this.list;
    switch (list.status) {
      case 'idle':
        return 'No store is configured.';
      case 'loading':
        return 'Loading plugins…';
      case 'error':
        return '';
      case 'ready': {
        const { total } = list.page;
        if (total === 0) return 'No plugins match';
        return `${total.toLocaleString()} ${total === 1 ? 'plugin' : 'plugins'}`;
      }
    }
  }

  private renderBody() {
    const list = this.list;
    if (list.status === 'idle') return nothing;
    if (list.status === 'error') return this.renderError(list.failure, () => this.reload());
    const page = list.status === 'ready' ? list.page : list.previous;
    if (!page) return html`<p class="loading" part="loading">Loading plugins from the store…</p>`;
    if (page.items.length === 0) {
      const filtered = this.searchQuery !== '' || this.category !== '';
      return html`<div class="empty" part="empty">
        <p>No plugins match${this.searchQuery ? html` “${this.searchQuery}”` : nothing}.</p>
        ${filtered
          ? html`<button type="button" part="clear-button" @click=${this.clearFilters}>Clear search and filters</button>`
          : nothing}
      </div>`;
    }
    const busy = new Set(this.busySlugs);
    const pages = pageCount(page.total, this.effectivePageSize);
    const current = Math.min(this.page, pages);
    return html`<ul class="list" part="list" aria-label="Plugins" aria-busy=${list.status === 'loading' ? 'true' : 'false'}>
        ${repeat(
          page.items,
          (plugin) => plugin.slug,
          (plugin, index) => this.renderCard(plugin, `c${index}`, busy.has(plugin.slug)),
        )}
      </ul>
      <nav part="pagination" aria-label="Pages">
        <button type="button" part="previous-button" ?disabled=${current <= 1} @click=${() => this.goToPage(current - 1, 'previous-button')}>
          Previous
        </button>
        <span part="page-status">Page ${current} of ${pages}</span>
        <button type="button" part="next-button" ?disabled=${current >= pages} @click=${() => this.goToPage(current + 1, 'next-button')}>
          Next
        </button>
      </nav>`;
  }

  private renderError(failure: Failure, retry: () => void) {
    return html`<div class="error" part="error" role="alert">
      <p><strong>${failure.title}</strong></p>
      <p class="problem">${failure.message}</p>
      <button type="button" part="retry-button" @click=${retry}>Retry</button>
    </div>`;
  }

  private renderIcon(plugin: StorePlugin) {
    const icon: CardIcon = storeIcon(plugin.iconUrl, plugin.name, location.origin);
    const broken = icon.kind === 'image' && this.brokenIcons.has(icon.src);
    const content =
      icon.kind === 'image' && !broken
        ? html`<img
            src=${icon.src}
            alt=""
            decoding="async"
            referrerpolicy="no-referrer"
            @error=${() => (this.brokenIcons = new Set([...this.brokenIcons, icon.src]))}
          />`
        : html`<span class="initial">${initialOf(plugin.name)}</span>`;
    return html`<span class="icon" part="icon" aria-hidden="true" data-kind=${icon.kind === 'image' && !broken ? 'image' : 'initial'}
      >${content}</span
    >`;
  }

  private renderRating(plugin: StorePlugin) {
    const label = ratingLabel(plugin.ratingAverage, plugin.ratingCount);
    if (plugin.ratingAverage === undefined || plugin.ratingCount === 0) {
      return html`<span part="rating" role="img" aria-label=${label}>No ratings</span>`;
    }
    return html`<span part="rating" role="img" aria-label=${label}
      ><span class="stars">${ratingStars(plugin.ratingAverage)}</span> ${Number(plugin.ratingAverage.toFixed(1))}
      (${plugin.ratingCount.toLocaleString()})</span
    >`;
  }

  private renderDownloads(plugin: StorePlugin) {
    const exact = plugin.downloadsCount.toLocaleString();
    const noun = plugin.downloadsCount === 1 ? 'download' : 'downloads';
    return html`<span part="downloads" title="${exact} ${noun}">${formatCount(plugin.downloadsCount)} ${noun}</span>`;
  }

  private renderActionButton(plugin: StorePlugin, busy: boolean, part: string, describedBy: string) {
    const action = this.actionOf(plugin);
    let label: string;
    switch (action.kind) {
      case 'install':
        label = busy ? 'Installing…' : 'Install';
        break;
      case 'update':
        label = busy ? 'Updating…' : `Update to ${action.version}`;
        break;
      case 'installed':
        label = busy ? 'Installing…' : 'Installed';
        break;
      default:
        label = 'Unavailable';
    }
    const usable = action.kind === 'install' || action.kind === 'update';
    return html`<button
      type="button"
      part=${part}
      data-action=${action.kind}
      aria-describedby=${describedBy}
      ?disabled=${busy || !usable}
      @click=${() => this.install(plugin, action)}
    >
      ${label}
    </button>`;
  }

  private onCardClick(event: MouseEvent, plugin: StorePlugin): void {
    // The install button does its own thing; anything else on the card opens the detail.
    const fromAction = event.composedPath().some((node) => node instanceof HTMLElement && node.matches('[part~="action-button"]'));
    if (fromAction) return;
    this.openDetail(plugin.slug, plugin);
  }

  private renderCard(plugin: StorePlugin, key: string, busy: boolean) {
    return html`<li
      class="card"
      part="card"
      data-slug=${plugin.slug}
      data-plugin-id=${plugin.id}
      aria-labelledby="${key}-name"
      aria-busy=${busy ? 'true' : 'false'}
      @click=${(event: MouseEvent) => this.onCardClick(event, plugin)}
    >
      <div class="head">
        ${this.renderIcon(plugin)}
        <div class="title">
          <h3 part="name" id="${key}-name">
            <button type="button" class="open" part="open-button" aria-haspopup="dialog" aria-describedby="${key}-description">${plugin.name}</button>
          </h3>
          ${plugin.latestVersion ? html`<span class="version" part="version">v${plugin.latestVersion}</span>` : nothing}
        </div>
      </div>
      <p class="description" part="description" id="${key}-description">${plugin.description}</p>
      ${plugin.tags.length > 0
        ? html`<ul class="tags" part="tags" aria-label="Tags">
            ${plugin.tags.map((tag) => html`<li part="tag">${tag}</li>`)}
          </ul>`
        : nothing}
      <div class="meta">${this.renderDownloads(plugin)} ${this.renderRating(plugin)}</div>
      <div class="foot">${this.renderActionButton(plugin, busy, 'action-button', `${key}-name`)}</div>
    </li>`;
  }

  private renderDetail(state: DetailState) {
    const plugin: StorePlugin | undefined = state.detail ?? state.summary;
    const busy = plugin ? this.busySlugs.includes(plugin.slug) : false;
    return html`<div class="detail-head">
        ${plugin ? this.renderIcon(plugin) : html`<span></span>`}
        <div>
          <h2 id="detail-title" part="detail-title">${plugin?.name ?? state.slug}</h2>
          ${plugin
            ? html`<p class="sub">
                <span class="mono">${plugin.id}</span>${plugin.latestVersion ? html` · version ${plugin.latestVersion}` : nothing}${plugin.category
                  ? html` · ${plugin.category}`
                  : nothing}
              </p>`
            : nothing}
        </div>
        <button type="button" part="close-button" autofocus @click=${() => this.closeDetail()}>Close</button>
      </div>
      ${plugin
        ? html`${plugin.description ? html`<p class="detail-description">${plugin.description}</p>` : nothing}
            <div class="meta detail-meta">
              ${this.renderDownloads(plugin)} ${this.renderRating(plugin)}
              ${plugin.tags.length > 0
                ? html`<ul class="tags" part="tags" aria-label="Tags">
                    ${plugin.tags.map((tag) => html`<li part="tag">${tag}</li>`)}
                  </ul>`
                : nothing}
            </div>
            <div class="detail-actions">${this.renderActionButton(plugin, busy, 'detail-action-button', 'detail-title')}</div>`
        : nothing}
      ${state.status === 'loading' ? html`<p class="loading" role="status">Loading details…</p>` : nothing}
      ${state.status === 'error' && state.failure
        ? this.renderError(state.failure, () => this.loadDetail(state.slug, state.summary))
        : nothing}
      ${state.status === 'ready' && state.detail ? this.renderVersions(state.detail) : nothing}`;
  }

  private renderVersions(detail: StorePluginDetail) {
    const versions = [...detail.versions].sort((a, b) => compareVersions(b.version, a.version));
    const latest = versions.find((entry) => entry.version === detail.latestVersion) ?? versions[0];
    return html`${latest
        ? html`<h3 class="section">Permissions</h3>
            <p class="sub">What version ${latest.version} may do once installed:</p>
            <plugin-permission-list part="permissions" .permissions=${latest.permissions}></plugin-permission-list>`
        : nothing}
      <h3 class="section">Versions</h3>
      ${versions.length === 0
        ? html`<p class="sub">No published versions.</p>`
        : html`<ol class="versions" part="versions" aria-label="Versions, newest first">
            ${versions.map((entry) => this.renderVersion(entry, entry === latest))}
          </ol>`}`;
  }

  private renderVersion(entry: StoreVersion, isLatest: boolean) {
    return html`<li part="version-entry" data-version=${entry.version}>
      <div class="version-line">
        <strong>${entry.version}</strong>
        ${isLatest ? html`<span>Latest</span>` : nothing}
        ${entry.publishedAt ? html`<time datetime=${entry.publishedAt}>${formatDate(entry.publishedAt)}</time>` : nothing}
        ${entry.sizeBytes > 0 ? html`<span>${formatBytes(entry.sizeBytes)}</span>` : nothing}
        ${entry.minLauncherVersion ? html`<span>Needs launcher ${entry.minLauncherVersion} or later</span>` : nothing}
      </div>
      ${entry.changelog.trim() !== ''
        ? html`<p class="changelog" part="changelog">${entry.changelog}</p>`
        : html`<p class="no-changelog">No changelog.</p>`}
    </li>`;
  }
}
