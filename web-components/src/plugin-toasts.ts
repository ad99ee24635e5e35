import { LitElement, css, html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ToastType } from '@plughost/host-sdk';

/** Options of {@link PluginToasts.show}. */
export interface ToastOptions {
  /** The plugin that asked for the toast. */
  readonly pluginId?: string;
  /** Shown as the toast's source (falls back to `pluginId`). */
  readonly pluginName?: string;
  /** How long it stays, in ms; default 5000, errors 8000. `0` or `Infinity` keeps it until closed. */
  readonly durationMs?: number;
}

/** A toast on screen. */
export interface ShownToast {
  readonly id: number;
  readonly message: string;
  readonly type: ToastType;
  readonly pluginId?: string;
  readonly source?: string;
}

interface ToastEntry extends ShownToast {
  /** Time left when the timer is paused, or the whole duration before it starts. */
  remaining: number;
  /** When the running timer started (ms), or null while paused. */
  startedAt: number | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  hovered: boolean;
  focused: boolean;
}

/** Toasts shown at once; a new one removes the oldest beyond this. */
export const MAX_TOASTS = 5;
const DEFAULT_DURATION = 5000;
const ERROR_DURATION = 8000;
/** How soon a toast that was due but held is looked at again. */
const RECHECK_MS = 250;

/**
 * In-app notifications (`showToast`): at most five at once (a new one removes the oldest), each
 * with a close button. Info and success toasts sit in a polite live region (`role="status"`);
 * errors are announced at once (`role="alert"`). Toasts close after 5 s (errors 8 s) unless the
 * pointer is over them or focus is inside them, which pauses the timer. A toast from a plugin
 * names it as its source.
 *
 * @fires plugin-toast-close - `{id}` when a toast goes away (timer, close button or `dismiss`).
 * @csspart region - The live region holding info and success toasts.
 * @csspart alerts - The region holding error toasts.
 * @csspart toast - One toast.
 * @csspart source - The plugin name of a toast.
 * @csspart message - The text of a toast.
 * @csspart close - The close button.
 * @cssprop --plugin-toast-success - Colour of success toasts (default green).
 * @cssprop --primary - Theme token (`H S% L%`): info toasts.
 * @cssprop --destructive - Theme token: error toasts.
 * @cssprop --popover - Theme token: toast background.
 * @cssprop --popover-foreground - Theme token: toast text.
 * @cssprop --ring - Theme token: focus ring.
 * @attr max-visible - Most toasts shown at once (default 5).
 *
 * @tagname plugin-toasts
 */
export class PluginToasts extends LitElement {
  static override styles = css`
    :host {
      position: fixed;
      inset-block-end: 1rem;
      inset-inline-end: 1rem;
      z-index: 1000;
      display: flex;
      flex-direction: column;
      gap: 0.5rem;
      max-width: min(24rem, calc(100vw - 2rem));
      pointer-events: none;
      --_info: hsl(var(--primary, 222 47% 31%));
      --_success: var(--plugin-toast-success, hsl(142 72% 29%));
      --_error: hsl(var(--destructive, 0 72% 45%));
    }
    .region {
      display: flex;
      flex-direction: column;
      gap: 0.5rem;
    }
    .toast {
      pointer-events: auto;
      display: grid;
      grid-template-columns: 1fr auto;
      gap: 0.15rem 0.5rem;
      padding: 0.6rem 0.75rem;
      border-radius: 6px;
      border: 1px solid hsl(var(--border, 214 32% 91%));
      border-inline-start: 4px solid var(--_colour);
      background: hsl(var(--popover, 0 0% 100%));
      color: hsl(var(--popover-foreground, 222 47% 11%));
      box-shadow: 0 4px 12px hsl(0 0% 0% / 0.15);
    }
    .toast[data-type='info'] {
      --_colour: var(--_info);
    }
    .toast[data-type='success'] {
      --_colour: var(--_success);
    }
    .toast[data-type='error'] {
      --_colour: var(--_error);
    }
    .source {
      grid-column: 1;
      font-size: 0.75rem;
      font-weight: 600;
    }
    .message {
      grid-column: 1;
      margin: 0;
      overflow-wrap: anywhere;
      white-space: pre-line;
    }
    .close {
      grid-column: 2;
      grid-row: 1 / span 2;
      align-self: start;
      font: inherit;
      line-height: 1;
      padding: 0.2rem 0.4rem;
      border: none;
      border-radius: 4px;
      background: none;
      color: inherit;
      cursor: pointer;
    }
    .close:hover {
      background: hsl(var(--accent, 210 40% 94%));
    }
    .close:focus-visible {
      outline: 2px solid hsl(var(--ring, 222 84% 55%));
      outline-offset: 1px;
    }
  `;

  /** Most toasts shown at once. */
  @property({ type: Number, attribute: 'max-visible' }) accessor maxVisible = MAX_TOASTS;

  @state() private accessor entries: readonly ToastEntry[] = [];

  #nextId = 1;

  /** The toasts on screen, oldest first. */
  get toasts(): readonly ShownToast[] {
    return this.entries.map(({ id, message, type, pluginId, source }) => ({ id, message, type, pluginId, source }));
  }

  /**
   * Shows a toast and returns its id. The message is shown as text, never as HTML.
   *
   * @param type - `info` (default), `success` or `error`.
   */
  show(message: string, type: ToastType = 'info', options: ToastOptions = {}): number {
    const kind: ToastType = type === 'error' || type === 'success' ? type : 'info';
    const requested = options.durationMs;
    const duration = requested === undefined || Number.isNaN(requested) ? (kind === 'error' ? ERROR_DURATION : DEFAULT_DURATION) : requested;
    const source = options.pluginName || options.pluginId;
    const entry: ToastEntry = {
      id: this.#nextId++,
      message: String(message),
      type: kind,
      ...(options.pluginId !== undefined ? { pluginId: options.pluginId } : {}),
      ...(source ? { source } : {}),
      remaining: duration > 0 ? duration : Number.POSITIVE_INFINITY,
      startedAt: null,
      timer: undefined,
      hovered: false,
      focused: false,
    };
    let entries = [...this.entries, entry];
    const limit = Math.max(1, this.maxVisible);
    while (entries.length > limit) {
      const oldest = entries[0];
      entries = entries.slice(1);
      if (oldest) this.#closed(oldest);
    }
    this.entries = entries;
    this.#run(entry);
    return entry.id;
  }

  /** Closes a toast now. */
  dismiss(id: number): void {
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (!entry) return;
    this.entries = this.entries.filter((candidate) => candidate !== entry);
    this.#closed(entry);
  }

  /** Closes every toast. */
  clear(): void {
    for (const entry of this.entries) this.dismiss(entry.id);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const entry of this.entries) this.#pause(entry);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    for (const entry of this.entries) if (!entry.hovered && !entry.focused) this.#run(entry);
  }

  #closed(entry: ToastEntry): void {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    this.dispatchEvent(new CustomEvent('plugin-toast-close', { detail: { id: entry.id }, bubbles: true, composed: true }));
  }

  #run(entry: ToastEntry): void {
    if (entry.timer !== undefined || !Number.isFinite(entry.remaining) || !this.isConnected) return;
    entry.startedAt = Date.now();
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      // The pointer or focus may have arrived without an event (a toast appearing under a resting
      // pointer, focus moved while the window was in the background): look again shortly.
      if (this.#heldNow(entry)) {
        entry.remaining = RECHECK_MS;
        this.#run(entry);
        return;
      }
      this.dismiss(entry.id);
    }, entry.remaining);
  }

  /** Whether the pointer is over the toast or focus is inside it, asked of the DOM. */
  #heldNow(entry: ToastEntry): boolean {
    const toast = this.renderRoot.querySelector(`[data-toast-id="${entry.id}"]`);
    if (!toast) return false;
    const active = this.shadowRoot?.activeElement;
    return toast.matches(':hover') || (active instanceof Node && toast.contains(active));
  }

  #pause(entry: ToastEntry): void {
    if (entry.timer === undefined) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.startedAt !== null) entry.remaining = Math.max(0, entry.remaining - (Date.now() - entry.startedAt));
    entry.startedAt = null;
  }

  #hold(entry: ToastEntry, reason: 'hovered' | 'focused', on: boolean): void {
    entry[reason] = on;
    if (entry.hovered || entry.focused) this.#pause(entry);
    else if (this.entries.includes(entry)) this.#run(entry);
  }

  #onFocusOut(entry: ToastEntry, event: FocusEvent): void {
    const toast = event.currentTarget as HTMLElement;
    if (event.relatedTarget instanceof Node && toast.contains(event.relatedTarget)) return;
    this.#hold(entry, 'focused', false);
  }

  override render() {
    const polite = this.entries.filter((entry) => entry.type !== 'error');
    const alerts = this.entries.filter((entry) => entry.type === 'error');
    return html`<div class="region" part="region" role="status" aria-live="polite" aria-label="Notifications">
        ${polite.map((entry) => this.#renderToast(entry))}
      </div>
      <div class="region" part="alerts" role="alert" aria-label="Errors">${alerts.map((entry) => this.#renderToast(entry))}</div>`;
  }

  #renderToast(entry: ToastEntry) {
    return html`<div
      class="toast"
      part="toast"
      data-type=${entry.type}
      data-toast-id=${entry.id}
      @mouseenter=${() => this.#hold(entry, 'hovered', true)}
      @mouseleave=${() => this.#hold(entry, 'hovered', false)}
      @focusin=${() => this.#hold(entry, 'focused', true)}
      @focusout=${(event: FocusEvent) => this.#onFocusOut(entry, event)}
    >
      ${entry.source ? html`<span class="source" part="source">${entry.source}</span>` : nothing}
      <p class="message" part="message">${entry.message}</p>
      <button type="button" class="close" part="close" aria-label="Close notification" @click=${() => this.dismiss(entry.id)}>
        ✕
      </button>
    </div>`;
  }
}
