import { LitElement, css, html, nothing, type PropertyDeclarations } from 'lit';
import type { SettingsPageContribution } from '@plughost/host-sdk/core';
import { followFrameHeights } from '@plughost/host-sdk';

/** A plugin as the settings section needs it. */
export interface SettingsTabPlugin {
  readonly id: string;
  readonly name: string;
  /** `contributes.settingsPages`; a plugin without any gets no tab. */
  readonly settingsPages?: readonly SettingsPageContribution[];
}

/** What `plugin-settings-select` carries. */
export interface PluginSettingsSelectDetail {
  /** The plugin whose tab is shown, or `null` for the default (General) tab. */
  readonly pluginId: string | null;
  /** The settings page shown, or `null` for the default tab. */
  readonly page: SettingsPageContribution | null;
}

/** The key of a page within its plugin: its `id`, else its position. */
function pageKey(page: SettingsPageContribution, index: number): string {
  return page.id ?? String(index);
}

/** An id safe for `id` attributes and ARIA references in the shadow root. */
function domId(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9_-]/g, (char) => `_${char.charCodeAt(0).toString(16)}`)}`;
}

/**
 * Settings → Plugins → "Plugin settings": one tab per plugin that contributes settings pages,
 * after a default "General" tab (position 0). The launcher puts each plugin's settings frame into
 * the slot `settings-<pluginId>` and its own content into the default slot. `openFor(pluginId)`
 * is what `openPluginSettings` does: that plugin's first page, or the default tab for a plugin
 * without settings pages. A plugin with several pages gets a sub-navigation in its panel.
 *
 * A plugin's settings frame (any `<iframe>` inside its slotted content) takes the height of the
 * page's content, which the guest runtime reports (`followFrameHeights`), so no card is clipped.
 *
 * Keyboard: the tab list is one Tab stop; Left/Right (and Up/Down) move between tabs, Home and
 * End go to the first and last; moving selects.
 *
 * @fires plugin-settings-select - `{pluginId, page}` whenever the user or `openFor` selects a tab or a page (`{pluginId: null, page: null}` for General).
 * @slot - The General panel's content.
 * @slot settings-<pluginId> - A plugin's settings content (its frame), shown in its tab's panel.
 * @csspart tablist - The tab list.
 * @csspart tab - One tab.
 * @csspart panel - A tab panel.
 * @csspart pages - The sub-navigation of a plugin with several settings pages.
 * @cssprop --primary - Theme token (`H S% L%`): the selected tab's marker.
 * @cssprop --muted-foreground - Theme token: unselected tabs.
 * @cssprop --border - Theme token: separators.
 * @cssprop --ring - Theme token: focus ring.
 * @attr selected - The selected plugin id; empty for General.
 * @attr general-label - The default tab's label (default "General").
 *
 * @tagname plugin-settings-tab
 */
export class PluginSettingsTab extends LitElement {
  static override styles = css`
    :host {
      display: block;
      color: hsl(var(--foreground, 222 47% 11%));
    }
    [role='tablist'] {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem;
      border-bottom: 1px solid hsl(var(--border, 214 32% 91%));
    }
    [role='tab'] {
      font: inherit;
      padding: 0.45rem 0.8rem;
      border: none;
      border-bottom: 2px solid transparent;
      background: none;
      color: hsl(var(--muted-foreground, 215 16% 40%));
      cursor: pointer;
    }
    [role='tab'][aria-selected='true'] {
      color: hsl(var(--foreground, 222 47% 11%));
      border-bottom-color: hsl(var(--primary, 222 47% 31%));
      font-weight: 600;
    }
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 222 84% 55%));
      outline-offset: 2px;
    }
    [role='tabpanel'] {
      padding: 0.75rem 0;
    }
    [role='tabpanel'][hidden] {
      display: none;
    }
    .with-pages {
      display: grid;
      grid-template-columns: minmax(8rem, max-content) 1fr;
      gap: 1rem;
    }
    nav ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.125rem;
    }
    nav button {
      font: inherit;
      width: 100%;
      text-align: start;
      padding: 0.35rem 0.6rem;
      border: none;
      border-radius: 4px;
      background: none;
      color: hsl(var(--foreground, 222 47% 11%));
      cursor: pointer;
    }
    nav button[aria-current='page'] {
      background: hsl(var(--accent, 210 40% 94%));
      color: hsl(var(--accent-foreground, 222 47% 11%));
      font-weight: 600;
    }
  `;

  // Declared without decorators: lowering them adds a runtime helper to every page that loads
  // this element before any plugin runs (see scripts/size.mjs).
  static override properties: PropertyDeclarations = {
    plugins: { type: Array },
    selected: { reflect: true },
    selectedPage: { attribute: 'selected-page' },
    generalLabel: { attribute: 'general-label' },
  };

  /** Installed plugins; those with `settingsPages` get a tab, in this order. */
  declare plugins: readonly SettingsTabPlugin[];

  /** The selected plugin id; `''` (or a plugin without settings pages) shows General. */
  declare selected: string;

  /** The key (`id`, else position) of the page shown for the selected plugin; `''` for its first. */
  declare selectedPage: string;

  /** Label of the default tab. */
  declare generalLabel: string;

  constructor() {
    super();
    this.plugins = [];
    this.selected = '';
    this.selectedPage = '';
    this.generalLabel = 'General';
  }

  /** Stops following the content height of the settings frames. */
  #stopHeights: (() => void) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#stopHeights ??= followFrameHeights(this, window);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopHeights?.();
    this.#stopHeights = undefined;
  }

  /** Plugins that have at least one settings page. */
  get #withPages(): SettingsTabPlugin[] {
    return this.plugins.filter((plugin) => (plugin.settingsPages?.length ?? 0) > 0);
  }

  /** The plugin whose tab is selected, or undefined for General. */
  get #current(): SettingsTabPlugin | undefined {
    return this.selected ? this.#withPages.find((plugin) => plugin.id === this.selected) : undefined;
  }

  /** The page shown for `plugin`: the one `selectedPage` names, else its first. */
  #pageOf(plugin: SettingsTabPlugin): SettingsPageContribution | null {
    const pages = plugin.settingsPages ?? [];
    const named = this.selectedPage ? pages.find((page, index) => pageKey(page, index) === this.selectedPage) : undefined;
    return named ?? pages[0] ?? null;
  }

  /**
   * Opens `pluginId`'s tab at its first settings page, or the default (General) tab when the
   * plugin has none (or is unknown). Fires `plugin-settings-select`, moves no focus.
   */
  openFor(pluginId: string): void {
    const plugin = this.#withPages.find((candidate) => candidate.id === pluginId);
    this.#select(plugin?.id ?? '', '');
  }

  #select(pluginId: string, page: string, focus = false): void {
    this.selected = pluginId;
    this.selectedPage = page;
    const plugin = this.#current;
    const detail: PluginSettingsSelectDetail = plugin ? { pluginId: plugin.id, page: this.#pageOf(plugin) } : { pluginId: null, page: null };
    this.dispatchEvent(new CustomEvent('plugin-settings-select', { detail, bubbles: true, composed: true }));
    if (focus) {
      void this.updateComplete.then(() => {
        this.renderRoot.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
      });
    }
  }

  #onTabKeydown(event: KeyboardEvent, ids: readonly string[], index: number): void {
    let next: number;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        next = (index + 1) % ids.length;
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        next = (index - 1 + ids.length) % ids.length;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = ids.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    this.#select(ids[next] ?? '', '', true);
  }

  override render() {
    const plugins = this.#withPages;
    const current = this.#current;
    const selectedId = current?.id ?? '';
    const tabs: { id: string; label: string }[] = [
      { id: '', label: this.generalLabel },
      ...plugins.map((plugin) => ({ id: plugin.id, label: plugin.name || plugin.id })),
    ];
    const ids = tabs.map((tab) => tab.id);
    return html`<div role="tablist" part="tablist" aria-label="Plugin settings">
        ${tabs.map((tab, index) => {
          const selected = tab.id === selectedId;
          return html`<button
            type="button"
            role="tab"
            part="tab"
            id=${domId('tab', tab.id || 'general')}
            data-plugin-id=${tab.id}
            aria-selected=${selected ? 'true' : 'false'}
            aria-controls=${domId('panel', tab.id || 'general')}
            tabindex=${selected ? '0' : '-1'}
            @click=${() => this.#select(tab.id, '')}
            @keydown=${(event: KeyboardEvent) => this.#onTabKeydown(event, ids, index)}
          >
            ${tab.label}
          </button>`;
        })}
      </div>
      <div
        role="tabpanel"
        part="panel"
        id=${domId('panel', 'general')}
        aria-labelledby=${domId('tab', 'general')}
        ?hidden=${selectedId !== ''}
      >
        <slot></slot>
      </div>
      ${plugins.map((plugin) => this.#renderPanel(plugin, plugin.id === selectedId))}`;
  }

  #renderPanel(plugin: SettingsTabPlugin, selected: boolean) {
    const pages = plugin.settingsPages ?? [];
    const shown = selected ? this.#pageOf(plugin) : pages[0];
    const slot = html`<slot name=${`settings-${plugin.id}`}></slot>`;
    return html`<div
      role="tabpanel"
      part="panel"
      id=${domId('panel', plugin.id)}
      aria-labelledby=${domId('tab', plugin.id)}
      data-plugin-id=${plugin.id}
      ?hidden=${!selected}
    >
      ${
        pages.length > 1
          ? html`<div class="with-pages">
            <nav part="pages" aria-label=${`${plugin.name || plugin.id} settings pages`}>
              <ul>
                ${pages.map(
                  (page, index) => html`<li>
                    <button
                      type="button"
                      data-page=${pageKey(page, index)}
                      aria-current=${page === shown ? 'page' : nothing}
                      @click=${() => this.#select(plugin.id, pageKey(page, index))}
                    >
                      ${page.title}
                    </button>
                  </li>`,
                )}
              </ul>
            </nav>
            <div>${slot}</div>
          </div>`
          : slot
      }
    </div>`;
  }
}
