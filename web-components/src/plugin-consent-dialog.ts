import { LitElement, css, html, type PropertyValues } from 'lit';
import { state } from 'lit/decorators.js';
import type { FileAccessRequest } from '@plughost/host-sdk';
import { keepFocusInDialog } from './dialog-focus.js';

interface PendingQuestion {
  readonly request: FileAccessRequest;
  readonly resolve: (allowed: boolean) => void;
}

/** What `plugin-consent-answer` carries. */
export interface PluginConsentAnswerDetail {
  readonly request: FileAccessRequest;
  readonly allowed: boolean;
}

/** The deepest focused element, looking into shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/**
 * The file-access consent prompt (`requestFileAccess`): a modal dialog naming the plugin, the
 * folder and whether it wants to read or to write there, with "Allow" and "Deny". Focus starts on
 * Deny, the safe choice; Escape or closing the dialog any other way denies. Questions asked while
 * one is open wait in a queue and are answered in order. Focus returns where it was once the last
 * question is answered.
 *
 * @fires plugin-consent-answer - `{request, allowed}` when the user answers a question.
 * @csspart dialog - The dialog.
 * @csspart path - The folder, in monospace.
 * @csspart allow - The Allow button.
 * @csspart deny - The Deny button.
 * @cssprop --popover - Theme token (`H S% L%`): dialog background.
 * @cssprop --popover-foreground - Theme token: dialog text.
 * @cssprop --primary - Theme token: the Allow button.
 * @cssprop --primary-foreground - Theme token: Allow button text.
 * @cssprop --muted - Theme token: the folder's background.
 * @cssprop --ring - Theme token: focus ring.
 *
 * @tagname plugin-consent-dialog
 */
export class PluginConsentDialog extends LitElement {
  static override styles = css`
    :host {
      display: contents;
    }
    dialog {
      max-width: min(32rem, calc(100vw - 2rem));
      padding: 1.25rem;
      border: 1px solid hsl(var(--border, 214 32% 91%));
      border-radius: 8px;
      background: hsl(var(--popover, 0 0% 100%));
      color: hsl(var(--popover-foreground, 222 47% 11%));
      box-shadow: 0 10px 30px hsl(0 0% 0% / 0.25);
    }
    dialog::backdrop {
      background: hsl(0 0% 0% / 0.45);
    }
    h2 {
      margin: 0 0 0.75rem;
      font-size: 1.1rem;
    }
    p {
      margin: 0 0 0.75rem;
    }
    .plugin-id {
      font-family: ui-monospace, monospace;
      font-size: 0.8em;
      opacity: 0.8;
    }
    code {
      display: block;
      margin: 0 0 0.75rem;
      padding: 0.5rem 0.65rem;
      border-radius: 4px;
      background: hsl(var(--muted, 210 40% 96%));
      color: hsl(var(--muted-foreground, 215 16% 30%));
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      font-size: 0.85rem;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      word-break: break-all;
    }
    .access {
      font-weight: 600;
    }
    .access[data-operation='write'] {
      color: hsl(var(--destructive, 0 72% 45%));
    }
    .buttons {
      display: flex;
      justify-content: flex-end;
      gap: 0.5rem;
      margin-top: 1rem;
    }
    button {
      font: inherit;
      padding: 0.4rem 0.9rem;
      border-radius: 6px;
      border: 1px solid hsl(var(--border, 214 32% 91%));
      background: hsl(var(--secondary, 210 40% 96%));
      color: hsl(var(--secondary-foreground, 222 47% 11%));
      cursor: pointer;
    }
    button.allow {
      border-color: transparent;
      background: hsl(var(--primary, 222 47% 31%));
      color: hsl(var(--primary-foreground, 210 40% 98%));
    }
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 222 84% 55%));
      outline-offset: 2px;
    }
    .queue {
      margin: 0;
      font-size: 0.8rem;
      opacity: 0.8;
    }
  `;

  /** The question on screen. */
  @state() private accessor current: PendingQuestion | undefined;

  readonly #queue: PendingQuestion[] = [];
  #restoreFocus: HTMLElement | null = null;
  /**
   * Watches the dialog's `open` attribute: `close()` removes it at once, while the `close` event
   * comes later (and not at all while the page is hidden).
   */
  readonly #openWatch = new MutationObserver(() => {
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog && !dialog.open && this.current) this.#answer(false);
  });

  /** The request on screen, if any. */
  get request(): FileAccessRequest | undefined {
    return this.current?.request;
  }

  /** Questions waiting behind the one on screen. */
  get pending(): number {
    return this.#queue.length;
  }

  /**
   * Asks the user whether `request.pluginName` may read or write in `request.prefix`. Resolves to
   * true only when they choose Allow. While the element is not in the document, answers false.
   */
  ask(request: FileAccessRequest): Promise<boolean> {
    if (!this.isConnected) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.#queue.push({ request: { ...request }, resolve });
      if (!this.current) this.#next();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Nobody can answer any more: every question is denied, the safe answer.
    const open = this.current;
    this.current = undefined;
    open?.resolve(false);
    for (const waiting of this.#queue.splice(0)) waiting.resolve(false);
  }

  #next(): void {
    const question = this.#queue.shift();
    if (question && !this.current && !this.#restoreFocus) this.#restoreFocus = deepActiveElement();
    this.current = question;
    if (!question) {
      const target = this.#restoreFocus;
      this.#restoreFocus = null;
      // After the dialog closed, so its own focus restoration does not win.
      if (target?.isConnected) queueMicrotask(() => target.focus());
    }
  }

  #answer(allowed: boolean): void {
    const question = this.current;
    if (!question) return;
    this.current = undefined;
    // With more questions waiting the dialog stays open for the next one; closing it would queue
    // a `close` event that could be taken for an answer to that next question.
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog?.open && this.#queue.length === 0) dialog.close();
    question.resolve(allowed);
    const detail: PluginConsentAnswerDetail = { request: question.request, allowed };
    this.dispatchEvent(new CustomEvent('plugin-consent-answer', { detail, bubbles: true, composed: true }));
    this.#next();
  }

  protected override firstUpdated(): void {
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog) this.#openWatch.observe(dialog, { attributes: true, attributeFilter: ['open'] });
  }

  protected override updated(changed: PropertyValues): void {
    if (!changed.has('current')) return;
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog) return;
    if (this.current) {
      if (!dialog.open) dialog.showModal();
      this.renderRoot.querySelector<HTMLButtonElement>('button.deny')?.focus();
    } else if (dialog.open) {
      dialog.close();
    }
  }

  #onCancel(event: Event): void {
    // Escape: deny, and keep the dialog for the next queued question if there is one.
    event.preventDefault();
    this.#answer(false);
  }

  #onClose(event: Event): void {
    // Closed some other way (a close request, `form method=dialog`): deny. A dialog open again
    // by now shows the next question, which this event is not about.
    if (this.current && !(event.target as HTMLDialogElement).open) this.#answer(false);
  }

  override render() {
    const request = this.current?.request;
    const operation = request?.operation === 'read' ? 'read' : 'write';
    const name = request ? request.pluginName || request.pluginId : '';
    return html`<dialog
      part="dialog"
      aria-labelledby="title"
      aria-describedby="description"
      @cancel=${(event: Event) => this.#onCancel(event)}
      @close=${(event: Event) => this.#onClose(event)}
      @keydown=${(event: KeyboardEvent) => keepFocusInDialog(event, event.currentTarget as HTMLElement)}
    >
      ${
        request
          ? html`<h2 id="title">Allow file access?</h2>
            <div id="description">
              <p>
                <strong class="plugin-name">${name}</strong>
                ${request.pluginName && request.pluginName !== request.pluginId ? html`<span class="plugin-id">(${request.pluginId})</span>` : ''}
                wants to
                <span class="access" data-operation=${operation}
                  >${operation === 'read' ? 'read files' : 'create, change and delete files'}</span
                >
                in this folder and everything inside it:
              </p>
              <code part="path" class="path">${request.prefix}</code>
              <p>
                Requested access: <span class="access-kind">${operation === 'read' ? 'Read' : 'Write'}</span>.
                If you allow it, the plugin keeps access to this folder, also after a restart, for every file
                operation its permissions include. Only allow plugins you trust.
              </p>
            </div>
            ${this.#queue.length > 0 ? html`<p class="queue">${this.#queue.length} more ${this.#queue.length === 1 ? 'request' : 'requests'} waiting.</p>` : ''}
            <div class="buttons">
              <button type="button" class="deny" part="deny" @click=${() => this.#answer(false)}>Deny</button>
              <button type="button" class="allow" part="allow" @click=${() => this.#answer(true)}>Allow</button>
            </div>`
          : ''
      }
    </dialog>`;
  }
}
