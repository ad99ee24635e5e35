import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { HostMenuItem } from '@plughost/host-sdk';
import { sidebarIcon } from './plugin-sidebar/icon.js';
import { isTypingTarget, matchesShortcut, parseKeyShortcut, type KeyShortcut } from './plugin-sidebar/shortcut.js';

export { parseKeyShortcut } from './plugin-sidebar/shortcut.js';
export type { KeyShortcut } from './plugin-sidebar/shortcut.js';

/** A command with an optional keyboard shortcut (`contributes.commands[]` of a plugin). */
export interface SidebarCommand {
  readonly pluginId: string;
  readonly id: string;
  readonly title: string;
  /** Such as `Ctrl+Shift+K`, `Alt+1`, `Mod+/`, `F5`. */
  readonly shortcut?: string;
  /** The plugin method the launcher calls; defaults to `id`. */
  readonly method?: string;
}

/** What `plugin-menu-activate` carries. */
export interface PluginMenuActivateDetail {
  readonly pluginId: string;
  readonly id: string;
}

/** What `plugin-command` carries. */
export interface PluginCommandDetail {
  readonly pluginId: string;
  readonly id: string;
  /** The method to call in the plugin (`method`, else `id`). */
  readonly method: string;
  /** The shortcut as pressed, in canonical spelling (`Ctrl+Shift+K`). */
  readonly shortcut: string;
}

interface BoundShortcut {
  readonly shortcut: KeyShortcut;
  readonly command: SidebarCommand;
}

const ICON_ATTRIBUTE = 'data-plugin-sidebar-icon';

function itemKey(item: Pick<HostMenuItem, 'pluginId' | 'id'>): string {
  return `${item.pluginId}:${item.id}`;
}

/** Sorts by `order` (items without one last), then by label. */
function sortItems(items: readonly HostMenuItem[]): HostMenuItem[] {
  return [...items].sort((a, b) => {
    const orderA = a.order ?? Number.POSITIVE_INFINITY;
    const orderB = b.order ?? Number.POSITIVE_INFINITY;
    if (orderA !== orderB) return orderA < orderB ? -1 : 1;
    return a.label.localeCompare(b.label) || a.pluginId.localeCompare(b.pluginId);
  });
}

/**
 * The launcher's sidebar: its own items (default slot) followed by the items plugins contribute
 * (`contributes.menuItems`) or add at run time (`addMenuItem`), ordered by `order`, then label.
 * Choosing an item runs `item.activate()` and fires `plugin-menu-activate`. Up/Down (and
 * Home/End) move the focus between all items, slotted ones included.
 *
 * While connected it also listens on `window` for the shortcuts of `commands` and fires
 * `plugin-command` (never while the user types in a text field or editable content). A shortcut
 * claimed twice goes to the first command; the second is ignored with a console warning.
 *
 * Items of dev plugins (`devPluginIds`: plugins a running `pluginctl dev` serves, listed with
 * `dev` by a launcher in development mode) carry a "dev" badge, as text.
 *
 * Icon-font classes (`ri-server-line`) are rendered as light-DOM spans slotted into the item, so
 * the page's icon-font stylesheet applies to them; images come from `https:`/`data:image/` URLs
 * or, given `files-origin`, the plugin's package files.
 *
 * @fires plugin-menu-activate - `{pluginId, id}` when a plugin item is chosen (click, Enter, Space).
 * @fires plugin-command - `{pluginId, id, method, shortcut}` when a command's shortcut is pressed.
 * @slot - The launcher's built-in items, shown first.
 * @slot plugin-icon:<pluginId>:<id> - Managed by the element: the icon-font span of a plugin item.
 * @csspart nav - The navigation landmark.
 * @csspart list - The list of plugin items.
 * @csspart item - A plugin item's button.
 * @csspart icon - A plugin item's icon.
 * @csspart label - A plugin item's label.
 * @csspart dev-badge - The "dev" badge of a dev plugin's item.
 * @cssprop --sidebar-background - Theme token (`H S% L%`): background.
 * @cssprop --sidebar-foreground - Theme token: item text.
 * @cssprop --sidebar-accent - Theme token: hovered item background.
 * @cssprop --sidebar-accent-foreground - Theme token: hovered item text.
 * @cssprop --sidebar-primary - Theme token: current item background.
 * @cssprop --sidebar-primary-foreground - Theme token: current item text.
 * @cssprop --ring - Theme token: focus ring.
 * @attr current - The current route, or `<pluginId>:<itemId>`, or an item id: that item gets `aria-current="page"`.
 * @attr files-origin - The backend origin serving plugin files, for icons given as package paths.
 *
 * @tagname plugin-sidebar
 */
export class PluginSidebar extends LitElement {
  static override styles = css`
    :host {
      display: block;
      background: hsl(var(--sidebar-background, 0 0% 98%));
      color: hsl(var(--sidebar-foreground, 240 5% 26%));
    }
    nav {
      display: grid;
      gap: 0.125rem;
      padding: 0.25rem;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.125rem;
    }
    button {
      font: inherit;
      display: flex;
      align-items: center;
      gap: 0.6rem;
      width: 100%;
      padding: 0.45rem 0.65rem;
      border: none;
      border-radius: 6px;
      background: none;
      color: inherit;
      text-align: start;
      cursor: pointer;
    }
    button:hover {
      background: hsl(var(--sidebar-accent, 240 5% 92%));
      color: hsl(var(--sidebar-accent-foreground, 240 6% 10%));
    }
    button[aria-current='page'] {
      background: hsl(var(--sidebar-primary, 240 6% 10%));
      color: hsl(var(--sidebar-primary-foreground, 0 0% 98%));
    }
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 217 91% 60%));
      outline-offset: 1px;
    }
    .icon {
      display: inline-flex;
      align-items: center;
      justify-content: center;
      width: 1.25rem;
      height: 1.25rem;
      flex: none;
    }
    .icon img {
      width: 100%;
      height: 100%;
      object-fit: contain;
    }
    .label {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .dev-badge {
      margin-inline-start: auto;
      flex: none;
      padding: 0 0.4rem;
      border: 1px solid currentColor;
      border-radius: 999px;
      font-family: ui-monospace, monospace;
      font-size: 0.7rem;
      line-height: 1.4;
    }
  `;

  /** Plugin items, contributed and dynamic. */
  @property({ attribute: false }) accessor items: readonly HostMenuItem[] = [];

  /** Plugin commands; those with a shortcut are bound while the element is connected. */
  @property({ attribute: false }) accessor commands: readonly SidebarCommand[] = [];

  /** The current route, `<pluginId>:<itemId>`, or an item id. */
  @property() accessor current: string | undefined;

  /** Ids of dev plugins (PluginInfo `dev`): their items carry a "dev" badge. */
  @property({ attribute: false }) accessor devPluginIds: readonly string[] = [];

  /** The backend origin serving `/api/plugins/<id>/files/...`, for icons that are package paths. */
  @property({ attribute: 'files-origin' }) accessor filesOrigin: string | undefined;

  #shortcuts: BoundShortcut[] = [];
  #listening = false;

  readonly #onWindowKeydown = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.isComposing || event.repeat) return;
    if (event.key === 'Control' || event.key === 'Alt' || event.key === 'Shift' || event.key === 'Meta') return;
    if (isTypingTarget(event)) return;
    const bound = this.#shortcuts.find((candidate) => matchesShortcut(event, candidate.shortcut));
    if (!bound) return;
    event.preventDefault();
    const { command } = bound;
    const detail: PluginCommandDetail = {
      pluginId: command.pluginId,
      id: command.id,
      method: command.method ?? command.id,
      shortcut: bound.shortcut.canonical,
    };
    this.dispatchEvent(new CustomEvent('plugin-command', { detail, bubbles: true, composed: true }));
  };

  /** The shortcuts bound now, in canonical spelling, with their commands. */
  get shortcuts(): readonly { readonly shortcut: string; readonly pluginId: string; readonly id: string }[] {
    return this.#shortcuts.map(({ shortcut, command }) => ({ shortcut: shortcut.canonical, pluginId: command.pluginId, id: command.id }));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.#listening) {
      window.addEventListener('keydown', this.#onWindowKeydown);
      this.#listening = true;
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.#onWindowKeydown);
    this.#listening = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('commands')) this.#bindShortcuts();
  }

  protected override updated(): void {
    this.#syncIconSpans();
  }

  #bindShortcuts(): void {
    const bound: BoundShortcut[] = [];
    for (const command of this.commands) {
      if (!command.shortcut) continue;
      const parsed = parseKeyShortcut(command.shortcut);
      if ('problem' in parsed) {
        console.warn(`Shortcut "${command.shortcut}" of command "${command.id}" (plugin ${command.pluginId}) ${parsed.problem}; it is not bound.`);
        continue;
      }
      const owner = bound.find((other) => other.shortcut.canonical === parsed.canonical);
      if (owner) {
        console.warn(
          `Shortcut ${parsed.canonical} is claimed twice: command "${owner.command.id}" of plugin ${owner.command.pluginId} keeps it, command "${command.id}" of plugin ${command.pluginId} is not bound.`,
        );
        continue;
      }
      bound.push({ shortcut: parsed, command });
    }
    this.#shortcuts = bound;
  }

  /** Keeps one light-DOM span per icon-font item, slotted into its button. */
  #syncIconSpans(): void {
    const wanted = new Map<string, string>();
    for (const item of this.items) {
      const icon = sidebarIcon(item.icon, item.pluginId, this.filesOrigin);
      if (icon.kind === 'class') wanted.set(`plugin-icon:${itemKey(item)}`, icon.className);
    }
    for (const span of [...this.querySelectorAll<HTMLElement>(`:scope > [${ICON_ATTRIBUTE}]`)]) {
      const className = wanted.get(span.slot);
      if (className === undefined) {
        span.remove();
      } else {
        if (span.className !== className) span.className = className;
        wanted.delete(span.slot);
      }
    }
    for (const [slot, className] of wanted) {
      const span = document.createElement('span');
      span.setAttribute(ICON_ATTRIBUTE, '');
      span.setAttribute('aria-hidden', 'true');
      span.slot = slot;
      span.className = className;
      this.append(span);
    }
  }

  #isCurrent(item: HostMenuItem): boolean {
    const current = this.current;
    if (!current) return false;
    return current === item.route || current === itemKey(item) || current === item.id;
  }

  #activate(item: HostMenuItem): void {
    const detail: PluginMenuActivateDetail = { pluginId: item.pluginId, id: item.id };
    this.dispatchEvent(new CustomEvent('plugin-menu-activate', { detail, bubbles: true, composed: true }));
    try {
      item.activate();
    } catch (error) {
      console.error(`The menu item "${item.id}" of plugin ${item.pluginId} failed`, error);
    }
  }

  /** Every focusable item: the launcher's slotted ones, then the plugin buttons. */
  #focusables(): HTMLElement[] {
    const slot = this.renderRoot.querySelector<HTMLSlotElement>('slot:not([name])');
    const selector = 'button:not([disabled]), a[href], [role="menuitem"], [role="link"], [tabindex]:not([tabindex="-1"])';
    const builtIn = (slot?.assignedElements({ flatten: true }) ?? []).flatMap((element) => {
      const own = element instanceof HTMLElement && element.matches(selector) ? [element] : [];
      return [...own, ...element.querySelectorAll<HTMLElement>(selector)];
    });
    const plugin = [...this.renderRoot.querySelectorAll<HTMLElement>('button[part="item"]')];
    return [...builtIn, ...plugin];
  }

  #onKeydown(event: KeyboardEvent): void {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
    const items = this.#focusables();
    if (items.length === 0) return;
    const active = event.composedPath().find((node): node is HTMLElement => node instanceof HTMLElement && items.includes(node));
    const index = active ? items.indexOf(active) : -1;
    let next: number;
    if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else if (event.key === 'ArrowDown') next = index === -1 ? 0 : (index + 1) % items.length;
    else next = index === -1 ? items.length - 1 : (index - 1 + items.length) % items.length;
    event.preventDefault();
    items[next]?.focus();
  }

  override render() {
    const items = sortItems(this.items);
    return html`<nav part="nav" aria-label="Sidebar" @keydown=${(event: KeyboardEvent) => this.#onKeydown(event)}>
      <slot></slot>
      ${
        items.length === 0
          ? nothing
          : html`<ul part="list" aria-label="Plugins">
            ${items.map((item) => this.#renderItem(item))}
          </ul>`
      }
    </nav>`;
  }

  #renderItem(item: HostMenuItem) {
    const icon = sidebarIcon(item.icon, item.pluginId, this.filesOrigin);
    return html`<li>
      <button
        type="button"
        part="item"
        data-plugin-id=${item.pluginId}
        data-item-id=${item.id}
        aria-current=${this.#isCurrent(item) ? 'page' : nothing}
        @click=${() => this.#activate(item)}
      >
        ${
          icon.kind === 'none'
            ? nothing
            : html`<span class="icon" part="icon" aria-hidden="true"
              >${icon.kind === 'image' ? html`<img src=${icon.src} alt="" />` : html`<slot name=${`plugin-icon:${itemKey(item)}`}></slot>`}</span
            >`
        }
        <span class="label" part="label">${item.label}</span>
        ${this.devPluginIds.includes(item.pluginId) ? html`<span class="dev-badge" part="dev-badge" title="Served by a running dev server (pluginctl dev)">dev</span>` : nothing}
      </button>
    </li>`;
  }
}
