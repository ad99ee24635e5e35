import { LitElement, css, html, nothing, type PropertyDeclarations } from 'lit';
import { followFrameHeights } from '@plughost/host-sdk';

/** What a `<plugin-frame>` shows about its plugin. */
export type PluginFrameStatus = 'loading' | 'ready' | 'failed' | 'unresponsive';

/**
 * The place one plugin's page lives. Give it to `PluginHost` as that plugin's frame container
 * (`frameContainer: (id) => frameElementFor(id)`): the host appends the plugin's sandboxed iframe
 * (`sandbox="allow-scripts"` only) as a child at activation, before the page is ever shown, so
 * library plugins run at once. The frame is never moved afterwards (moving an iframe reloads
 * it); this element only shows or hides it, and shows the plugin's state: loading, failed (with
 * the reason, such as a missing or disabled dependency, and Retry and Disable actions) or not
 * answering (with Reload and Disable actions). It never stays "Loading" once the host has given up.
 *
 * The frame takes the height of the plugin's content, which the guest runtime reports (a sandboxed
 * frame cannot be measured from outside; `followFrameHeights`), and at least the element's own
 * height: give the element a `min-height` (or a height) to make a short page fill its place.
 *
 * @slot - The plugin's iframe (or an inline plugin's container), placed by the host.
 * @fires plugin-frame-reload - The user asked to retry a plugin that failed, or to reload one that stopped answering. Detail `{pluginId}`.
 * @fires plugin-frame-disable - The user asked to disable a plugin that failed or stopped answering. Detail `{pluginId}`.
 * @csspart status - The loading, error or not-answering notice.
 * @cssprop --plugin-frame-background - Background behind the frame (default the card token).
 * @attr plugin-id - The plugin shown here.
 * @attr active - Present while the plugin's page is the one shown.
 *
 * @tagname plugin-frame
 */
export class PluginFrame extends LitElement {
  static override styles = css`
    :host {
      display: none;
      position: relative;
      min-height: 12rem;
      background: var(--plugin-frame-background, hsl(var(--card, 0 0% 100%)));
      color: hsl(var(--card-foreground, 0 0% 10%));
      border-radius: 8px;
      overflow: hidden;
    }
    :host([active]) {
      display: flex;
      flex-direction: column;
    }
    /* The reported content height (the frame's inline height) is the basis; it grows to fill. */
    ::slotted(iframe) {
      flex: 1 0 auto;
      width: 100%;
      min-height: 12rem;
      border: 0;
      background: transparent;
    }
    .status {
      margin: 0;
      padding: 0.75rem 1rem;
      display: flex;
      gap: 0.75rem;
      align-items: center;
      flex-wrap: wrap;
      border-bottom: 1px solid hsl(var(--border, 0 0% 85%));
    }
    .status[data-status='failed'],
    .status[data-status='unresponsive'] {
      background: hsl(var(--destructive, 0 84% 60%) / 0.12);
    }
    button {
      font: inherit;
      padding: 0.3rem 0.8rem;
      border-radius: 6px;
      border: 1px solid hsl(var(--border, 0 0% 80%));
      background: hsl(var(--secondary, 0 0% 96%));
      color: hsl(var(--secondary-foreground, 0 0% 10%));
      cursor: pointer;
    }
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 217 91% 60%));
      outline-offset: 2px;
    }
  `;

  // Declared without decorators: lowering them adds a runtime helper to every page that loads
  // this element before any plugin runs (see scripts/size.mjs).
  static override properties: PropertyDeclarations = {
    pluginId: { attribute: 'plugin-id', reflect: true },
    pluginName: { attribute: 'plugin-name' },
    active: { type: Boolean, reflect: true },
    status: { reflect: true },
    message: {},
  };

  /** The plugin shown here. */
  declare pluginId: string;

  /** The plugin's name, for the notices. */
  declare pluginName: string;

  /** Shown while true; the frame keeps running while hidden. */
  declare active: boolean;

  /** The plugin's state, set by the launcher from the host's events. */
  declare status: PluginFrameStatus;

  /** Why loading failed (shown with `status="failed"`). */
  declare message: string;

  constructor() {
    super();
    this.pluginId = '';
    this.pluginName = '';
    this.active = false;
    this.status = 'loading';
    this.message = '';
  }

  /** Stops following the content height of the frame. */
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

  protected override updated(): void {
    // The host creates frames hidden; visibility follows this element from then on.
    for (const frame of this.querySelectorAll(':scope > iframe')) (frame as HTMLIFrameElement).hidden = !this.active;
  }

  override render() {
    const name = this.pluginName || this.pluginId;
    const notice =
      this.status === 'loading'
        ? html`<p class="status" part="status" role="status" data-status="loading">Loading ${name}…</p>`
        : this.status === 'failed'
          ? html`<p class="status" part="status" role="alert" data-status="failed">
              ${name} could not be loaded${this.message ? html`: ${this.message}` : nothing}.
              <button type="button" @click=${() => this.fire('plugin-frame-reload')}>Retry</button>
              <button type="button" @click=${() => this.fire('plugin-frame-disable')}>Disable plugin</button>
            </p>`
          : this.status === 'unresponsive'
            ? html`<p class="status" part="status" role="alert" data-status="unresponsive">
                ${name} is not responding.
                <button type="button" @click=${() => this.fire('plugin-frame-reload')}>Reload</button>
                <button type="button" @click=${() => this.fire('plugin-frame-disable')}>Disable plugin</button>
              </p>`
            : nothing;
    return html`${notice}<slot @slotchange=${() => this.requestUpdate()}></slot>`;
  }

  private fire(type: 'plugin-frame-reload' | 'plugin-frame-disable'): void {
    this.dispatchEvent(new CustomEvent(type, { detail: { pluginId: this.pluginId }, bubbles: true, composed: true }));
  }
}
