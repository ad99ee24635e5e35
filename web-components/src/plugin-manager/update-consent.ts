/**
 * The consent step of an update, shared by `<plugin-manager>` and `<plugin-store>`: a modal dialog
 * in the element's shadow root listing only the permissions the new version adds, with their risk
 * colours (`<plugin-permission-list>`), "Cancel" (focused first, the safe choice) and "Allow and
 * update". Escape or closing the dialog any other way cancels.
 */
import { css, html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { UpdateConsentRequest } from './plugin-updates.js';
import { keepFocusInDialog } from '../dialog-focus.js';

interface Question {
  readonly request: UpdateConsentRequest;
  readonly pluginName: string;
  readonly resolve: (allowed: boolean) => void;
}

/** The element focused now, looking through open shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/** Styles of the consent dialog's content (the element adds `dialogStyles` and `buttonStyles`). */
export const updateConsentStyles = css`
  .consent h2 {
    margin: 0 0 0.75rem;
    font-size: 1.1rem;
  }
  .consent p {
    margin: 0 0 0.75rem;
  }
  .consent .buttons {
    display: flex;
    justify-content: flex-end;
    gap: 0.5rem;
    margin-top: 1rem;
  }
  .consent .allow {
    border-color: transparent;
    background: hsl(var(--primary, 222 47% 11%));
    color: hsl(var(--primary-foreground, 0 0% 98%));
  }
`;

/** Asks for consent to an update's added permissions and renders the dialog that asks. */
export class UpdateConsentPrompt implements ReactiveController {
  #current: Question | undefined;
  readonly #queue: Question[] = [];
  #restoreFocus: HTMLElement | null = null;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  /** The question on screen, if any. */
  get request(): UpdateConsentRequest | undefined {
    return this.#current?.request;
  }

  /** Resolves to true only when the user chooses "Allow and update"; false while the element is not in the document. */
  ask(request: UpdateConsentRequest, pluginName: string): Promise<boolean> {
    if (!this.host.isConnected) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.#queue.push({ request, pluginName, resolve });
      if (!this.#current) this.#next();
    });
  }

  hostDisconnected(): void {
    // Nobody can answer any more: every question is declined, the safe answer.
    const open = this.#current;
    this.#current = undefined;
    open?.resolve(false);
    for (const waiting of this.#queue.splice(0)) waiting.resolve(false);
  }

  hostUpdated(): void {
    const dialog = this.#dialog();
    if (!dialog) return;
    if (this.#current && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLButtonElement>('[part~="consent-cancel-button"]')?.focus();
    } else if (!this.#current && dialog.open) {
      dialog.close();
    }
  }

  /** The dialog; render it once in the element's template. */
  render(): TemplateResult {
    const question = this.#current;
    return html`<dialog
      class="consent"
      part="update-consent"
      aria-labelledby="update-consent-title"
      aria-describedby="update-consent-description"
      @cancel=${(event: Event) => {
        event.preventDefault();
        this.#answer(false);
      }}
      @close=${() => {
        if (this.#current && !this.#dialog()?.open) this.#answer(false);
      }}
      @keydown=${(event: KeyboardEvent) => keepFocusInDialog(event, event.currentTarget as HTMLElement)}
    >
      ${question ? this.#renderQuestion(question) : nothing}
    </dialog>`;
  }

  #renderQuestion({ request, pluginName }: Question): TemplateResult {
    const { update, added } = request;
    const count = added.length === 1 ? 'a new permission' : `${added.length} new permissions`;
    return html`<h2 id="update-consent-title">Update ${pluginName} to ${update.latestVersion}?</h2>
      <p id="update-consent-description">
        Version ${update.latestVersion} asks for ${count}. It is updated only if you allow ${added.length === 1 ? 'it' : 'them'}; what the
        installed version may already do is not listed.
      </p>
      <plugin-permission-list part="consent-permissions" .permissions=${added.map((permission) => permission.id)}></plugin-permission-list>
      <div class="buttons">
        <button type="button" part="consent-cancel-button" @click=${() => this.#answer(false)}>Cancel</button>
        <button type="button" class="allow" part="consent-allow-button" @click=${() => this.#answer(true)}>Allow and update</button>
      </div>`;
  }

  #dialog(): HTMLDialogElement | null {
    return this.host.shadowRoot?.querySelector<HTMLDialogElement>('dialog[part~="update-consent"]') ?? null;
  }

  #next(): void {
    const question = this.#queue.shift();
    if (question && !this.#current && !this.#restoreFocus) this.#restoreFocus = deepActiveElement();
    this.#current = question;
    if (!question) {
      const target = this.#restoreFocus;
      this.#restoreFocus = null;
      // After the dialog closed, so its own focus restoration does not win.
      if (target?.isConnected) queueMicrotask(() => target.focus());
    }
    this.host.requestUpdate();
  }

  #answer(allowed: boolean): void {
    const question = this.#current;
    if (!question) return;
    this.#current = undefined;
    question.resolve(allowed);
    this.#next();
  }
}
