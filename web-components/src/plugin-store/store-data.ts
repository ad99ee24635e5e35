import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DetailState, ListState } from './store-model.js';
import { failureOf, pageCount } from './store-model.js';
import type { StoreCatalog, StorePlugin, StoreQuery } from './registry-client.js';

/** What {@link StoreData} asks its element. */
export interface StoreDataSource {
  /** Where the catalog is read from now, or null when no store is configured. */
  catalog(): StoreCatalog | null;
  /** The list query now chosen. */
  listQuery(): StoreQuery;
  /** The chosen page is past the last one (fewer plugins than when it was chosen): show `last`. */
  pageOutOfRange(last: number): void;
  /** A list load ended, with the page or with an error (not when it was aborted). */
  listSettled(): void;
}

/**
 * The store's data: the list and the open detail, the categories seen, and the requests that
 * load them. A request whose answer is no longer wanted is aborted; one cut short by the element
 * leaving the page runs again when it comes back.
 */
export class StoreData implements ReactiveController {
  private listValue: ListState = { status: 'idle' };
  private detailValue: DetailState | null = null;
  private categoriesValue: ReadonlyMap<string, string> = new Map();
  private listRequest: AbortController | null = null;
  private detailRequest: AbortController | null = null;
  /** A request was cut short by disconnecting: run it again on reconnect. */
  private resumeOnConnect = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly source: StoreDataSource,
  ) {
    host.addController(this);
  }

  /** The list of cards. */
  get list(): ListState {
    return this.listValue;
  }

  /** The open detail panel, or null. */
  get detail(): DetailState | null {
    return this.detailValue;
  }

  /** Categories of every plugin seen since the registry was set, by lower-case key. */
  get categories(): ReadonlyMap<string, string> {
    return this.categoriesValue;
  }

  hostConnected(): void {
    if (this.resumeOnConnect) {
      this.resumeOnConnect = false;
      this.loadList();
      if (this.detailValue) this.loadDetail(this.detailValue.slug, this.detailValue.summary);
    }
  }

  hostDisconnected(): void {
    if (this.listRequest || this.detailRequest) this.resumeOnConnect = true;
    this.listRequest?.abort();
    this.listRequest = null;
    this.detailRequest?.abort();
    this.detailRequest = null;
  }

  /** Starts over with another registry: its categories are not known yet. */
  forgetCategories(): void {
    this.set(() => (this.categoriesValue = new Map()));
  }

  /** The cards shown now (those of the page still shown while the next loads). */
  shownItems(): readonly StorePlugin[] {
    const list = this.listValue;
    if (list.status === 'ready') return list.page.items;
    if (list.status === 'loading') return list.previous?.items ?? [];
    return [];
  }

  /** Loads the page the host's query names, keeping the shown page until it arrives. */
  loadList(): void {
    this.listRequest?.abort();
    this.listRequest = null;
    const catalog = this.source.catalog();
    if (!catalog) {
      this.setList({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    this.listRequest = controller;
    const query = this.source.listQuery();
    const shown = this.listValue;
    const previous = shown.status === 'ready' ? shown.page : shown.status === 'loading' ? shown.previous : undefined;
    this.setList(previous ? { status: 'loading', previous } : { status: 'loading' });
    catalog.list(query, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        this.listRequest = null;
        const last = pageCount(page.total, query.pageSize);
        if (page.items.length === 0 && page.total > 0 && query.page > last) {
          // Fewer plugins than when the page was chosen: show the last page there is.
          this.source.pageOutOfRange(last);
          this.loadList();
          return;
        }
        this.rememberCategories(page.items);
        this.setList({ status: 'ready', page });
        this.source.listSettled();
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.listRequest = null;
        this.setList({ status: 'error', failure: failureOf(error) });
        this.source.listSettled();
      },
    );
  }

  /** Opens (or reloads) the detail of `slug`, showing `summary` while it loads. */
  loadDetail(slug: string, summary: StorePlugin | undefined): void {
    this.detailRequest?.abort();
    const controller = new AbortController();
    this.detailRequest = controller;
    this.setDetail({ slug, ...(summary ? { summary } : {}), status: 'loading' });
    const catalog = this.source.catalog();
    const read = catalog ? catalog.detail(slug, controller.signal) : Promise.reject(new Error('No store is configured.'));
    read.then(
      (detail) => {
        if (controller.signal.aborted) return;
        this.detailRequest = null;
        this.rememberCategories([detail]);
        this.setDetail({ slug, ...(summary ? { summary } : {}), status: 'ready', detail });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.detailRequest = null;
        this.setDetail({ slug, ...(summary ? { summary } : {}), status: 'error', failure: failureOf(error) });
      },
    );
  }

  /** Closes the detail, aborting its request. */
  closeDetail(): void {
    this.detailRequest?.abort();
    this.detailRequest = null;
    this.setDetail(null);
  }

  private rememberCategories(items: readonly StorePlugin[]): void {
    let next: Map<string, string> | null = null;
    for (const { category } of items) {
      if (!category) continue;
      const key = category.toLowerCase();
      if (this.categoriesValue.has(key) || next?.has(key)) continue;
      next ??= new Map(this.categoriesValue);
      next.set(key, category);
    }
    if (next) this.set(() => (this.categoriesValue = next));
  }

  private setList(list: ListState): void {
    this.set(() => (this.listValue = list));
  }

  private setDetail(detail: DetailState | null): void {
    if (detail === this.detailValue) return;
    this.set(() => (this.detailValue = detail));
  }

  private set(change: () => void): void {
    change();
    this.host.requestUpdate();
  }
}
