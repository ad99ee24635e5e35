/** The list view: the toolbar (search, category, sort), the result count, the cards and the pages. */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { renderActionButton, renderDownloads, renderError, renderIcon, renderRating, renderTags, type IconState } from './plugin-parts.js';
import { STORE_SORTS, type StorePlugin, type StoreSort } from './registry-client.js';
import { pageCount, type Action, type ListState } from './store-model.js';

const SORT_LABEL: Readonly<Record<StoreSort, string>> = {
  downloads: 'Most downloaded',
  rating: 'Highest rated',
  updated: 'Recently updated',
  name: 'Name (A–Z)',
  newest: 'Newest',
};

/** A pagination button, remembered so focus can stay in the navigation. */
export type PaginationButton = 'previous-button' | 'next-button';

/** What the list view shows and what its controls do. */
export interface ListView extends IconState {
  readonly list: ListState;
  /** Categories seen, by lower-case key. */
  readonly categories: ReadonlyMap<string, string>;
  /** The search box's text. */
  readonly searchText: string;
  /** The search of the shown results. */
  readonly searchQuery: string;
  readonly category: string;
  readonly sort: StoreSort;
  readonly page: number;
  readonly pageSize: number;
  readonly busySlugs: readonly string[];
  /** No store source is usable: install and update buttons are disabled. */
  readonly storeDisabled: boolean;
  actionOf(plugin: StorePlugin): Action;
  /** True while the plugin's update asks for consent or installs. */
  updating(plugin: StorePlugin): boolean;
  /** The message of the plugin's failed update, if any. */
  updateProblem(plugin: StorePlugin): string | undefined;
  install(plugin: StorePlugin, action: Action): void;
  searchInput(event: Event): void;
  searchSubmit(event: Event): void;
  categoryChange(event: Event): void;
  sortChange(event: Event): void;
  clearFilters(): void;
  goToPage(page: number, used: PaginationButton): void;
  retry(): void;
  /** A click anywhere on a card. */
  cardClick(event: MouseEvent, plugin: StorePlugin): void;
}

/** The search form and the category and sort selects. */
export function renderToolbar(view: ListView): TemplateResult {
  const categories = [...view.categories.values()].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
  if (view.category !== '' && !view.categories.has(view.category.toLowerCase())) categories.unshift(view.category);
  return html`<div class="toolbar" part="toolbar">
    <form role="search" part="search" aria-label="Search the store" @submit=${view.searchSubmit}>
      <input
        type="search"
        part="search-input"
        aria-label="Search plugins"
        placeholder="Search plugins"
        autocomplete="off"
        spellcheck="false"
        maxlength="200"
        .value=${view.searchText}
        @input=${view.searchInput}
      />
    </form>
    <label
      >Category
      <select part="category-select" @change=${view.categoryChange}>
        <option value="" ?selected=${view.category === ''}>All categories</option>
        ${categories.map((category) => html`<option .value=${category} ?selected=${category === view.category}>${category}</option>`)}
      </select>
    </label>
    <label
      >Sort by
      <select part="sort-select" @change=${view.sortChange}>
        ${STORE_SORTS.map((sort) => html`<option value=${sort} ?selected=${sort === view.sort}>${SORT_LABEL[sort]}</option>`)}
      </select>
    </label>
  </div>`;
}

/** The result count (a polite live region). */
export function renderCount(list: ListState): TemplateResult {
  return html`<p class="count" part="count" role="status" aria-live="polite">${countText(list)}</p>`;
}

function countText(list: ListState): string {
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

/** The cards and pagination, or the first load's progress, the empty state or the error. */
export function renderList(view: ListView): TemplateResult | typeof nothing {
  const list = view.list;
  if (list.status === 'idle') return nothing;
  if (list.status === 'error') return renderError(list.failure, view.retry);
  const page = list.status === 'ready' ? list.page : list.previous;
  if (!page) return html`<p class="loading" part="loading">Loading plugins from the store…</p>`;
  if (page.items.length === 0) {
    const filtered = view.searchQuery !== '' || view.category !== '';
    // Says what to do next: other words or no filters, or (an empty store) another source.
    return html`<div class="empty" part="empty">
      ${
        filtered
          ? html`<p>
              No plugins match${view.searchQuery ? html` “${view.searchQuery}”` : nothing}${view.category ? html` in this category` : nothing}. Try other
              words, or clear the search and filters to see every plugin.
            </p>
            <button type="button" part="clear-button" @click=${view.clearFilters}>Clear search and filters</button>`
          : html`<p>This store has no plugins yet. Add another plugin source in the launcher's settings, or come back later.</p>`
      }
    </div>`;
  }
  const busy = new Set(view.busySlugs);
  const pages = pageCount(page.total, view.pageSize);
  const current = Math.min(view.page, pages);
  return html`<ul class="list" part="list" aria-label="Plugins" aria-busy=${list.status === 'loading' ? 'true' : 'false'}>
      ${repeat(
        page.items,
        (plugin) => plugin.slug,
        (plugin, index) => renderCard(view, plugin, `c${index}`, busy.has(plugin.slug) || view.updating(plugin)),
      )}
    </ul>
    <nav part="pagination" aria-label="Pages">
      <button type="button" part="previous-button" ?disabled=${current <= 1} @click=${() => view.goToPage(current - 1, 'previous-button')}>
        Previous
      </button>
      <span part="page-status">Page ${current} of ${pages}</span>
      <button type="button" part="next-button" ?disabled=${current >= pages} @click=${() => view.goToPage(current + 1, 'next-button')}>
        Next
      </button>
    </nav>`;
}

/** One card; `key` makes its ids unique within the list. */
function renderCard(view: ListView, plugin: StorePlugin, key: string, busy: boolean): TemplateResult {
  const action = view.actionOf(plugin);
  return html`<li
    class="card"
    part="card"
    data-slug=${plugin.slug}
    data-plugin-id=${plugin.id}
    aria-labelledby="${key}-name"
    aria-busy=${busy ? 'true' : 'false'}
    @click=${(event: MouseEvent) => view.cardClick(event, plugin)}
  >
    <div class="head">
      ${renderIcon(plugin, view)}
      <div class="title">
        <h2 class="name" part="name" id="${key}-name">
          <button type="button" class="open" part="open-button" aria-haspopup="dialog" aria-describedby="${key}-description">${plugin.name}</button>
        </h2>
        ${plugin.latestVersion ? html`<span class="version" part="version">v${plugin.latestVersion}</span>` : nothing}
      </div>
    </div>
    <p class="description" part="description" id="${key}-description">${plugin.description}</p>
    ${plugin.tags.length > 0 ? renderTags(plugin.tags) : nothing}
    <div class="meta">${renderDownloads(plugin)} ${renderRating(plugin)}</div>
    <div class="foot">
      ${renderActionButton({
        action,
        busy,
        storeDisabled: view.storeDisabled,
        part: 'action-button',
        describedBy: `${key}-name`,
        install: () => view.install(plugin, action),
        problem: view.updateProblem(plugin),
      })}
    </div>
  </li>`;
}
