import { LitElement, css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { DEFAULT_OVERLAY_BOX, MIN_OVERLAY_HEIGHT, MIN_OVERLAY_WIDTH, clampPosition, clampSize, viewportSize } from './plugin-overlay/geometry.js';

/**
 * Lifecycle of an overlay (specification, "States and transitions: Overlay"):
 * `created` → `shown` ⇄ `hidden`, and any state → `destroyed`, which is final.
 */
export type PluginOverlayState = 'created' | 'shown' | 'hidden' | 'destroyed';

/** Detail of `plugin-overlay-move`: the new top-left corner in CSS pixels (viewport coordinates). */
export interface PluginOverlayMoveDetail {
  readonly x: number;
  readonly y: number;
}

/** Detail of `plugin-overlay-resize`: the new size in CSS pixels. */
export interface PluginOverlayResizeDetail {
  readonly width: number;
  readonly height: number;
}

/** Detail of `plugin-overlay-minimize`. */
export interface PluginOverlayMinimizeDetail {
  /** `true` when only the title bar is shown now. */
  readonly minimized: boolean;
}

/** Detail of `plugin-overlay-state`. */
export interface PluginOverlayStateDetail {
  /** The state just entered. */
  readonly state: PluginOverlayState;
}

/** Detail of `plugin-overlay-close` (nothing: the event itself is the request). */
export type PluginOverlayCloseDetail = Record<string, never>;

/** The transitions the state machine allows; `destroyed` allows none. */
const TRANSITIONS: Readonly<Record<PluginOverlayState, readonly PluginOverlayState[]>> = {
  created: ['shown', 'destroyed'],
  shown: ['hidden', 'destroyed'],
  hidden: ['shown', 'destroyed'],
  destroyed: [],
};

/** Pixels one arrow key press moves or resizes the window by. */
const KEY_STEP = 10;

const ARROWS: Readonly<Record<string, readonly [number, number]>> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** A drag in progress (title bar: move; handle: resize). */
interface Drag {
  readonly kind: 'move' | 'resize';
  /** The title bar or the handle, which holds the pointer capture. */
  readonly target: HTMLElement;
  readonly pointerId: number;
  readonly startX: number;
  readonly startY: number;
  readonly originA: number;
  readonly originB: number;
  changed: boolean;
}

/**
 * A floating, non-modal window for a plugin overlay (`overlay.*` bridge methods,
 * `contributes.overlay`). Its content is slotted: the overlay layer (`createOverlayLayer`) puts the
 * plugin's sandboxed iframe in it.
 *
 * The window is a `role="dialog"` labelled by its title. It has a title bar that moves it (drag
 * with the pointer, or focus it and press the arrow keys: 10 px per press), a minimize button
 * when `minimizable` (minimized, only the title bar is shown), a close button, and a resize handle
 * in the bottom-right corner when `resizable` (drag it, or focus it and press Shift+arrow keys;
 * plain arrows work too). Position and size are kept inside the viewport, also when the viewport
 * shrinks; coordinates are viewport pixels (the window is `position: fixed`).
 *
 * State machine (`state`): `created` (not shown) → `shown` ⇄ `hidden` (not shown; the slotted
 * frame keeps running), and any state → `destroyed`, which removes the element. `show()` also
 * restores a minimized window. Transitions not in the specification's table are refused (for
 * example `hide()` on a `created` overlay, or anything out of `destroyed`); a refused transition
 * leaves the state and the attribute unchanged.
 *
 * The element never takes focus on its own (a plugin opening a window must not steal the user's
 * typing). When it is hidden or destroyed while it holds focus, focus returns to where it came
 * from. Escape in the window's title bar or buttons asks to close it, like the close button.
 * Closing is a request: the element fires `plugin-overlay-close` and stays as it is; the overlay
 * layer answers by hiding the overlay (the specification does not say; hiding keeps the plugin's
 * overlay id valid, so it can show the window again).
 *
 * Move and resize events are fired for the user's changes only (at the end of a drag, or per key
 * press); setting `x`, `y`, `width` or `height` fires nothing.
 *
 * @slot - The overlay's content (the layer's sandboxed iframe), sized to fill the window body.
 * @fires plugin-overlay-move - The user moved the window. Detail {@link PluginOverlayMoveDetail} `{x, y}`.
 * @fires plugin-overlay-resize - The user resized the window. Detail {@link PluginOverlayResizeDetail} `{width, height}`.
 * @fires plugin-overlay-minimize - The user minimized or restored the window. Detail {@link PluginOverlayMinimizeDetail} `{minimized}`.
 * @fires plugin-overlay-close - The user clicked close (or pressed Escape in the window chrome). Detail `{}`.
 * @fires plugin-overlay-state - The state changed. Detail {@link PluginOverlayStateDetail} `{state}`.
 * @csspart window - The floating window (the dialog).
 * @csspart title-bar - The title bar (drag handle, focusable for keyboard moves).
 * @csspart title - The title text.
 * @csspart minimize-button - The minimize/restore button.
 * @csspart close-button - The close button.
 * @csspart body - The area holding the slotted content.
 * @csspart resize-handle - The bottom-right resize handle.
 * @cssprop --plugin-overlay-z-index - Stacking order of the window (default 1000).
 * @cssprop --plugin-overlay-shadow - Box shadow of the window.
 * @cssprop --card - Window background (theme token, `H S% L%`).
 * @cssprop --card-foreground - Window text colour.
 * @cssprop --muted - Title bar background.
 * @cssprop --muted-foreground - Title bar button colour.
 * @cssprop --border - Window border.
 * @cssprop --accent - Hovered button background.
 * @cssprop --ring - Focus ring colour.
 * @attr state - `created`, `shown`, `hidden` or `destroyed` (reflected).
 * @attr heading - The title.
 * @attr x - Left edge in CSS pixels.
 * @attr y - Top edge in CSS pixels.
 * @attr width - Width in CSS pixels.
 * @attr height - Height in CSS pixels (of the whole window, title bar included).
 * @attr minimizable - Present to offer a minimize button.
 * @attr resizable - Present to offer a resize handle.
 * @attr minimized - Present while only the title bar is shown (reflected).
 *
 * @tagname plugin-overlay
 */
export class PluginOverlay extends LitElement {
  static override styles = css`
    :host {
      display: none;
    }
    :host([state='shown']) {
      display: block;
    }
    .window {
      position: fixed;
      z-index: var(--plugin-overlay-z-index, 1000);
      box-sizing: border-box;
      display: flex;
      flex-direction: column;
      overflow: hidden;
      background: hsl(var(--card, 0 0% 100%));
      color: hsl(var(--card-foreground, 0 0% 10%));
      border: 1px solid hsl(var(--border, 0 0% 85%));
      border-radius: 8px;
      box-shadow: var(--plugin-overlay-shadow, 0 10px 30px hsl(0 0% 0% / 0.25));
    }
    .title-bar {
      flex: none;
      display: flex;
      align-items: center;
      gap: 0.25rem;
      min-height: 2rem;
      padding: 0 0.25rem 0 0.75rem;
      background: hsl(var(--muted, 0 0% 96%));
      color: hsl(var(--card-foreground, 0 0% 10%));
      border-bottom: 1px solid hsl(var(--border, 0 0% 85%));
      cursor: move;
      user-select: none;
      -webkit-user-select: none;
      touch-action: none;
    }
    .minimized .title-bar {
      border-bottom: 0;
    }
    .title {
      flex: 1;
      min-width: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      font-weight: 600;
      font-size: 0.875rem;
    }
    button {
      flex: none;
      display: inline-grid;
      place-items: center;
      width: 1.75rem;
      height: 1.75rem;
      padding: 0;
      border: 0;
      border-radius: 4px;
      background: transparent;
      color: hsl(var(--muted-foreground, 0 0% 40%));
      font: inherit;
      font-size: 1rem;
      line-height: 1;
      cursor: pointer;
    }
    button:hover {
      background: hsl(var(--accent, 0 0% 90%));
      color: hsl(var(--accent-foreground, 0 0% 10%));
    }
    .title-bar:focus-visible,
    button:focus-visible,
    .resize-handle:focus-visible {
      outline: 2px solid hsl(var(--ring, 217 91% 60%));
      outline-offset: -2px;
    }
    .body {
      position: relative;
      flex: 1;
      min-height: 0;
    }
    .body[hidden] {
      display: none;
    }
    ::slotted(*) {
      display: block;
      width: 100%;
      height: 100%;
      border: 0;
    }
    .dragging .body {
      /* The frame would swallow pointer events that leave the captured element's hit test. */
      pointer-events: none;
    }
    .resize-handle {
      position: absolute;
      right: 0;
      bottom: 0;
      width: 14px;
      height: 14px;
      cursor: nwse-resize;
      touch-action: none;
      background: linear-gradient(
        135deg,
        transparent 0 50%,
        hsl(var(--border, 0 0% 70%)) 50% 60%,
        transparent 60% 70%,
        hsl(var(--border, 0 0% 70%)) 70% 80%,
        transparent 80%
      );
    }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
  `;

  #state: PluginOverlayState = 'created';
  #drag: Drag | undefined;
  #returnFocus: HTMLElement | undefined;
  readonly #onViewportResize = (): void => this.requestUpdate();

  // Declared without decorators: lowering them adds a runtime helper to every page that loads
  // this element before any plugin runs (see scripts/size.mjs). Lit wraps the `state` accessor
  // below, as it would a decorated one.
  static override properties: PropertyDeclarations = {
    heading: {},
    x: { type: Number },
    y: { type: Number },
    width: { type: Number },
    height: { type: Number },
    minimizable: { type: Boolean },
    resizable: { type: Boolean },
    minimized: { type: Boolean, reflect: true },
    state: { reflect: true },
  };

  /** The title, shown in the title bar and used as the dialog's accessible name. */
  declare heading: string;

  /** Left edge in CSS pixels (viewport coordinates), kept inside the viewport. */
  declare x: number;

  /** Top edge in CSS pixels (viewport coordinates), kept inside the viewport. */
  declare y: number;

  /** Width in CSS pixels, at least {@link MIN_OVERLAY_WIDTH} and at most the viewport's. */
  declare width: number;

  /** Height in CSS pixels (whole window), at least {@link MIN_OVERLAY_HEIGHT} and at most the viewport's. */
  declare height: number;

  /** Offer a minimize button. */
  declare minimizable: boolean;

  /** Offer a resize handle. */
  declare resizable: boolean;

  /** Only the title bar is shown. Always `false` unless `minimizable`. */
  declare minimized: boolean;

  /**
   * The lifecycle state. Setting it (property or attribute) runs the same transition as the
   * methods; a transition the state machine does not allow is ignored.
   */
  set state(next: PluginOverlayState) {
    this.#transition(next);
  }
  get state(): PluginOverlayState {
    return this.#state;
  }

  constructor() {
    super();
    this.heading = '';
    this.x = DEFAULT_OVERLAY_BOX.x;
    this.y = DEFAULT_OVERLAY_BOX.y;
    this.width = DEFAULT_OVERLAY_BOX.width;
    this.height = DEFAULT_OVERLAY_BOX.height;
    this.minimizable = false;
    this.resizable = false;
    this.minimized = false;
    // The state has no initialiser: ask for the first reflection of `created` here.
    this.requestUpdate('state', undefined);
  }

  /** Shows the window (`created` or `hidden` → `shown`), restoring it if minimized. @returns whether the state changed. */
  show(): boolean {
    return this.#go('shown');
  }

  /** Hides the window (`shown` → `hidden`); its content keeps running. @returns whether the state changed. */
  hide(): boolean {
    return this.#go('hidden');
  }

  /** Destroys the window (any state → `destroyed`) and removes the element. @returns whether the state changed. */
  destroy(): boolean {
    return this.#go('destroyed');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('resize', this.#onViewportResize);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('resize', this.#onViewportResize);
    this.#drag = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (!this.minimizable && this.minimized) this.minimized = false;
    // Always: the viewport may have changed since the last update.
    const size = clampSize(this.width, this.height, DEFAULT_OVERLAY_BOX.width, DEFAULT_OVERLAY_BOX.height);
    if (size.width !== this.width) this.width = size.width;
    if (size.height !== this.height) this.height = size.height;
    const position = clampPosition(this.x, this.y, this.width, this.#visibleHeight(), DEFAULT_OVERLAY_BOX.x, DEFAULT_OVERLAY_BOX.y);
    if (position.x !== this.x) this.x = position.x;
    if (position.y !== this.y) this.y = position.y;
  }

  override render() {
    const title = this.heading;
    const label = title || 'Plugin overlay';
    // The pointer and key handlers sit on the window: a drag's events reach it from the captured
    // title bar or handle, and each handler tells which of them the event is for.
    return html`<div
      class="window ${this.minimized ? 'minimized' : ''} ${this.#drag ? 'dragging' : ''}"
      part="window"
      role="dialog"
      aria-modal="false"
      aria-label=${label}
      @keydown=${this.#onKeydown}
      @focusin=${this.#onFocusIn}
      @pointerdown=${this.#onPointerDown}
      @pointermove=${this.#onPointerMove}
      @pointerup=${this.#onPointerEnd}
      @pointercancel=${this.#onPointerEnd}
      @lostpointercapture=${this.#onPointerEnd}
    >
      <div class="title-bar" part="title-bar" tabindex="0" role="group" aria-label=${`Move ${label}`} aria-describedby="move-help">
        <span class="title" part="title">${title}</span>
        <span id="move-help" class="visually-hidden">Use the arrow keys to move the window.</span>
        ${
          this.minimizable
            ? html`<button
              part="minimize-button"
              type="button"
              aria-label=${this.minimized ? 'Restore' : 'Minimize'}
              aria-expanded=${!this.minimized}
              aria-controls="body"
              @click=${this.#onMinimizeClick}
            >
              <span aria-hidden="true">${this.minimized ? '▢' : '–'}</span>
            </button>`
            : nothing
        }
        <button part="close-button" type="button" aria-label="Close" @click=${this.#requestClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div id="body" class="body" part="body" ?hidden=${this.minimized}><slot></slot></div>
      ${
        this.resizable && !this.minimized
          ? html`<div class="resize-handle" part="resize-handle" tabindex="0" role="group" aria-label=${`Resize ${label}`} aria-describedby="resize-help"
          ><span id="resize-help" class="visually-hidden">Use Shift and the arrow keys to resize the window.</span></div>`
          : nothing
      }
    </div>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // Through the CSSOM, not a style attribute, which a page's Content-Security-Policy may refuse.
    const box = (this.renderRoot.querySelector('.window') as HTMLElement).style;
    box.left = `${this.x}px`;
    box.top = `${this.y}px`;
    box.width = `${this.width}px`;
    // Minimized, the window is as tall as its title bar.
    box.height = this.minimized ? 'auto' : `${this.height}px`;
  }

  /** The height the window takes on screen: the title bar's alone when minimized. */
  #visibleHeight(): number {
    if (!this.minimized) return this.height;
    const bar = this.renderRoot.querySelector<HTMLElement>('.title-bar');
    return bar?.offsetHeight || 32;
  }

  #go(next: PluginOverlayState): boolean {
    const before = this.#state;
    this.state = next;
    return this.#state !== before;
  }

  #transition(next: unknown): void {
    const current = this.#state;
    if (next === current) return;
    if (!TRANSITIONS[current].includes(next as PluginOverlayState)) {
      // Refused. An attribute written from outside is put back to the real state.
      if (this.hasAttribute('state') && this.getAttribute('state') !== current) this.setAttribute('state', current);
      return;
    }
    this.#state = next as PluginOverlayState;
    if (next === 'shown') this.minimized = false;
    if (next === 'hidden' || next === 'destroyed') this.#releaseFocus();
    this.#emit<PluginOverlayStateDetail>('plugin-overlay-state', { state: this.#state });
    if (next === 'destroyed') {
      this.#drag = undefined;
      this.remove();
    }
  }

  #emit<T>(name: string, detail: T): void {
    this.dispatchEvent(new CustomEvent<T>(name, { detail, bubbles: true, composed: true }));
  }

  #requestClose(): void {
    this.#emit<PluginOverlayCloseDetail>('plugin-overlay-close', {});
  }

  #onMinimizeClick(): void {
    if (!this.minimizable) return;
    this.minimized = !this.minimized;
    this.#emit<PluginOverlayMinimizeDetail>('plugin-overlay-minimize', { minimized: this.minimized });
  }

  // ---- focus ----

  #onFocusIn(event: FocusEvent): void {
    const from = event.relatedTarget;
    if (from instanceof HTMLElement && !this.contains(from) && !this.renderRoot.contains(from)) this.#returnFocus = from;
  }

  /** Gives focus back when the window goes away while holding it. */
  #releaseFocus(): void {
    if (!this.matches(':focus-within')) return;
    const target = this.#returnFocus;
    this.#returnFocus = undefined;
    if (target?.isConnected) target.focus();
    else (this.renderRoot.querySelector(':focus') as HTMLElement | null)?.blur();
  }

  // ---- keyboard ----

  /**
   * Escape anywhere in the window chrome asks to close it; arrow keys move the window from the
   * title bar itself (not its buttons) and resize it from the handle (with or without Shift).
   */
  #onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.#requestClose();
      return;
    }
    const arrow = ARROWS[event.key];
    const target = event.target as HTMLElement;
    const kind = target.classList.contains('title-bar') ? 'move' : target.classList.contains('resize-handle') ? 'resize' : undefined;
    if (!arrow || !kind || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const [dx, dy] = [arrow[0] * KEY_STEP, arrow[1] * KEY_STEP];
    if (kind === 'move') this.#moveTo(this.x + dx, this.y + dy, true);
    else this.#resizeTo(this.width + dx, this.height + dy, true);
  }

  // ---- pointer ----

  /** A primary-button press on the title bar (not its buttons) starts a move, on the handle a resize. */
  #onPointerDown(event: PointerEvent): void {
    const target = event.target as HTMLElement;
    const handle = target.closest<HTMLElement>('.title-bar, .resize-handle');
    if (event.button !== 0 || !handle || target.closest('button')) return;
    const move = handle.classList.contains('title-bar');
    if (!move) event.preventDefault();
    try {
      handle.setPointerCapture(event.pointerId);
    } catch {
      // A pointer the browser does not know (a synthetic event): the moves still reach the window.
    }
    this.#drag = {
      kind: move ? 'move' : 'resize',
      target: handle,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      originA: move ? this.x : this.width,
      originB: move ? this.y : this.height,
      changed: false,
    };
    this.requestUpdate();
  }

  #onPointerMove(event: PointerEvent): void {
    const drag = this.#drag;
    if (!drag || event.pointerId !== drag.pointerId) return;
    const a = drag.originA + event.clientX - drag.startX;
    const b = drag.originB + event.clientY - drag.startY;
    if (drag.kind === 'move' ? this.#moveTo(a, b, false) : this.#resizeTo(a, b, false)) drag.changed = true;
  }

  #onPointerEnd(event: PointerEvent): void {
    const drag = this.#drag;
    if (!drag || event.pointerId !== drag.pointerId) return;
    this.#drag = undefined;
    this.requestUpdate();
    if (event.type !== 'lostpointercapture' && drag.target.hasPointerCapture(event.pointerId)) drag.target.releasePointerCapture(event.pointerId);
    if (!drag.changed) return;
    if (drag.kind === 'move') this.#emit<PluginOverlayMoveDetail>('plugin-overlay-move', { x: this.x, y: this.y });
    else this.#emit<PluginOverlayResizeDetail>('plugin-overlay-resize', { width: this.width, height: this.height });
  }

  // ---- geometry ----

  /** Moves within the viewport; `announce` fires the move event. @returns whether it moved. */
  #moveTo(x: number, y: number, announce: boolean): boolean {
    const next = clampPosition(x, y, this.width, this.#visibleHeight(), this.x, this.y);
    if (next.x === this.x && next.y === this.y) return false;
    this.x = next.x;
    this.y = next.y;
    if (announce) this.#emit<PluginOverlayMoveDetail>('plugin-overlay-move', next);
    return true;
  }

  /** Resizes within the viewport (the top-left corner stays); `announce` fires the resize event. */
  #resizeTo(width: number, height: number, announce: boolean): boolean {
    const viewport = viewportSize();
    const limitW = Math.max(MIN_OVERLAY_WIDTH, viewport.width - this.x);
    const limitH = Math.max(MIN_OVERLAY_HEIGHT, viewport.height - this.y);
    const next = {
      width: Math.round(Math.min(limitW, Math.max(MIN_OVERLAY_WIDTH, width))),
      height: Math.round(Math.min(limitH, Math.max(MIN_OVERLAY_HEIGHT, height))),
    };
    if (next.width === this.width && next.height === this.height) return false;
    this.width = next.width;
    this.height = next.height;
    if (announce) this.#emit<PluginOverlayResizeDetail>('plugin-overlay-resize', next);
    return true;
  }
}

declare global {
  interface HTMLElementEventMap {
    'plugin-overlay-move': CustomEvent<PluginOverlayMoveDetail>;
    'plugin-overlay-resize': CustomEvent<PluginOverlayResizeDetail>;
    'plugin-overlay-minimize': CustomEvent<PluginOverlayMinimizeDetail>;
    'plugin-overlay-close': CustomEvent<PluginOverlayCloseDetail>;
    'plugin-overlay-state': CustomEvent<PluginOverlayStateDetail>;
  }
}
