import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { property, query } from 'lit/decorators.js';
import { compareRisk, describeCapabilities, type PackageSigner, type PermissionRisk, type PluginManifest, type SignatureCheck } from '@plughost/host-sdk/core';
import { keepFocusInDialog } from './dialog-focus.js';
import { riskBadgeContent } from './risk-badge.js';
import { dialogStyles } from './shared-styles.js';

/** One line of the inspect answer: a permission (or `render:inline`) and its risk. */
export interface InspectedPermission {
  readonly id: string;
  readonly risk: PermissionRisk;
}

/**
 * The answer of `POST /api/plugins/inspect` (decisions section 4): what the dialog shows before
 * "Install". The backend installs nothing to produce it.
 */
export interface PackageInspection {
  /** The package's validated manifest. */
  readonly manifest: PluginManifest;
  /** What installing allows, highest risk first; `render: inline` is listed as `render:inline`. */
  readonly permissions: readonly InspectedPermission[];
  /** The verified signer, or `null` when the package is unsigned or its signature is invalid. */
  readonly signer: PackageSigner | null;
  /** `valid`, `unsigned` or `invalid`. */
  readonly signatureStatus: 'valid' | 'unsigned' | 'invalid';
  /** Why the signature is invalid (only with `signatureStatus: 'invalid'`). */
  readonly signatureProblem?: { readonly check: SignatureCheck; readonly reason: string };
  /** The version of this plugin installed now, or `null`: installing would overwrite it. */
  readonly installedVersion?: string | null;
  /**
   * A store package (`POST /api/plugins/store-inspect`): the permission ids its store listing did
   * not show, marked "Not shown in the store listing".
   */
  readonly unlistedPermissions?: readonly string[];
  /** A store package: the API root of the store source it came from. */
  readonly source?: string;
  /** A store package: whether that source is the primary store (else "backup source"). */
  readonly sourcePrimary?: boolean;
}

/** `detail` of `plugin-install-confirm` and `plugin-install-cancel`. */
export interface PluginInstallDetail {
  /** The manifest of the package the dialog showed. */
  readonly manifest: PluginManifest;
}

const RISK_SUMMARY: Readonly<Record<PermissionRisk, string>> = {
  normal: 'This plugin asks only for permissions that cannot harm your computer or your games.',
  warning: 'This plugin asks for permissions that can change your games or settings or reach the internet.',
  danger: 'This plugin asks for permissions that give it control over your computer or the launcher. Install it only if you trust its developer.',
};

/** The highest risk of the inspect answer and of the manifest itself (whichever is higher). */
function highestRisk(inspection: PackageInspection): PermissionRisk {
  const { manifest } = inspection;
  let highest = describeCapabilities({ permissions: manifest.permissions ?? [], render: manifest.render }).highestRisk;
  for (const { risk } of inspection.permissions ?? []) {
    if (compareRisk(risk, highest) > 0) highest = risk;
  }
  return highest;
}

/** `host[:port]` of a store API root, for the "From" line. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The element focused now, looking through open shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/**
 * The install confirmation: a modal dialog showing a package before it is installed, with its
 * name, version, id, author and description, who signed it (with a clear warning when it is
 * unsigned or its signature is not valid; "unsigned" in words and a shape), every permission it
 * asks for with its risk colour and plain-language description, and the overall risk. Feed it the
 * answer of `POST /api/plugins/inspect` (an upload) or `POST /api/plugins/store-inspect` (a store
 * package: the store host it came from is shown, and permissions its store listing did not show
 * are marked) through {@link PluginInstallDialog.show}.
 *
 * "Install" fires `plugin-install-confirm` and leaves the dialog open: the launcher sets `busy`
 * while it installs, then calls `close()` on success or sets `error` (and clears `busy`) on
 * failure. "Cancel" and Escape close the dialog and fire `plugin-install-cancel`. Focus moves to
 * "Cancel" when the dialog opens (the safe choice), Tab keeps it inside the dialog, and it goes
 * back to where it was when the dialog closes.
 * Nothing from the package is rendered as HTML.
 *
 * @fires plugin-install-confirm - `CustomEvent<{manifest: PluginManifest}>`: the user chose "Install".
 * @fires plugin-install-cancel - `CustomEvent<{manifest: PluginManifest}>`: the user chose "Cancel" or pressed Escape.
 * @attr open - Present while the dialog is shown (reflects `open`).
 * @attr busy - Present while the launcher installs (reflects `busy`).
 * @attr error - An install error message to show.
 * @csspart dialog - The native `<dialog>` element.
 * @csspart title - The heading with the plugin's name.
 * @csspart details - The list of version, id and author.
 * @csspart signer - The signer block (`data-status` is `valid`, `unsigned` or `invalid`).
 * @csspart risk-summary - The overall risk (`data-risk` is `normal`, `warning` or `danger`).
 * @csspart permissions - The `<plugin-permission-list>` (its rows mark the permissions a store listing did not show).
 * @csspart unlisted-note - For a store package asking for more than its listing showed: how many permissions were not shown.
 * @csspart source - The store host a store package came from ("(backup source)" when it is not the primary).
 * @csspart error - The install error message.
 * @csspart actions - The button row.
 * @csspart install-button - The "Install" button.
 * @csspart cancel-button - The "Cancel" button.
 * @cssprop --plugin-risk-normal - Colour of normal risk (default blue).
 * @cssprop --plugin-risk-warning - Colour of warning risk (default yellow).
 * @cssprop --plugin-risk-danger - Colour of danger risk (default red).
 * @cssprop --popover - Dialog background (theme token, `H S% L%`).
 * @cssprop --popover-foreground - Dialog text (theme token).
 * @cssprop --primary - "Install" button background (theme token).
 * @cssprop --primary-foreground - "Install" button text (theme token).
 * @cssprop --secondary - "Cancel" button background (theme token).
 * @cssprop --secondary-foreground - "Cancel" button text (theme token).
 * @cssprop --muted-foreground - Secondary text (theme token).
 * @cssprop --border - Borders (theme token).
 * @cssprop --destructive - Error and invalid-signature colour (theme token).
 * @cssprop --ring - Focus ring (theme token).
 *
 * @tagname plugin-install-dialog
 */
export class PluginInstallDialog extends LitElement {
  static override styles = [
    dialogStyles,
    css`
    :host {
      display: contents;
      --_normal: var(--plugin-risk-normal, hsl(217 91% 60%));
      --_warning: var(--plugin-risk-warning, hsl(45 93% 47%));
      --_danger: var(--plugin-risk-danger, hsl(0 84% 60%));
    }
    h2 {
      margin: 0 0 0.25rem;
      font-size: 1.25rem;
      overflow-wrap: anywhere;
    }
    .description {
      margin: 0 0 0.75rem;
      overflow-wrap: anywhere;
    }
    dl {
      display: grid;
      grid-template-columns: auto 1fr;
      gap: 0.15rem 0.75rem;
      margin: 0 0 1rem;
      font-size: 0.9rem;
    }
    dt {
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
    dd {
      margin: 0;
      overflow-wrap: anywhere;
    }
    .mono {
      font-family: ui-monospace, monospace;
      font-size: 0.85em;
    }
    .signer,
    .risk {
      margin: 0 0 1rem;
      padding: 0.6rem 0.75rem;
      border-radius: 0.5rem;
      border-left: 4px solid var(--_accent);
      background: color-mix(in srgb, var(--_accent) 12%, hsl(var(--popover, 0 0% 100%)));
    }
    .signer p,
    .risk p {
      margin: 0;
    }
    .signer p + p,
    .risk p + p {
      margin-top: 0.25rem;
    }
    .signer[data-status='valid'] {
      --_accent: hsl(var(--border, 0 0% 70%));
    }
    .signer[data-status='unsigned'] {
      --_accent: var(--_warning);
    }
    /* "Unsigned" in a shape as well as in words and colour: a triangle with an exclamation mark. */
    .shape {
      display: inline-grid;
      place-items: end center;
      width: 1.3em;
      height: 1.15em;
      font-weight: 700;
      font-size: 0.85em;
      clip-path: polygon(50% 0, 100% 100%, 0 100%);
      background: var(--_accent);
      color: hsl(0 0% 7%);
    }
    .unlisted-note {
      margin: 0 0 0.5rem;
      color: hsl(var(--destructive, 0 72% 45%));
    }
    .signer[data-status='invalid'] {
      --_accent: var(--_danger);
    }
    .risk[data-risk='normal'] {
      --_accent: var(--_normal);
    }
    .risk[data-risk='warning'] {
      --_accent: var(--_warning);
    }
    .risk[data-risk='danger'] {
      --_accent: var(--_danger);
    }
    /* Dark text on the risk colour keeps a contrast above 4.5:1 for all three colours. */
    .risk-badge {
      display: inline-block;
      padding: 0.1rem 0.5rem;
      border-radius: 999px;
      font-size: 0.75rem;
      font-weight: 600;
      text-transform: uppercase;
      background: var(--_accent);
      color: hsl(0 0% 7%);
    }
    h3 {
      margin: 0 0 0.5rem;
      font-size: 1rem;
    }
    plugin-permission-list {
      margin-bottom: 1rem;
    }
    .error {
      margin: 0 0 1rem;
      padding: 0.5rem 0.75rem;
      border-radius: 0.5rem;
      border: 1px solid hsl(var(--destructive, 0 84% 60%));
      color: hsl(var(--destructive, 0 72% 45%));
      overflow-wrap: anywhere;
    }
    /* The buttons stay at the dialog's bottom edge while a long permission list scrolls. */
    .actions {
      position: sticky;
      bottom: -1.25rem;
      margin: 0 -1.5rem -1.25rem;
      padding: 0.75rem 1.5rem 1.25rem;
      border-top: 1px solid hsl(var(--border, 0 0% 85%));
      background: hsl(var(--popover, 0 0% 100%));
      display: flex;
      justify-content: flex-end;
      align-items: center;
      gap: 0.5rem;
    }
    .progress {
      margin-right: auto;
      font-size: 0.9rem;
    }
    button {
      font: inherit;
      padding: 0.45rem 1rem;
      border-radius: 0.5rem;
      border: 1px solid transparent;
      cursor: pointer;
    }
    button:disabled {
      cursor: not-allowed;
      opacity: 0.6;
    }
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 217 91% 60%));
      outline-offset: 2px;
    }
    .install {
      background: hsl(var(--primary, 222 47% 11%));
      color: hsl(var(--primary-foreground, 0 0% 98%));
    }
    .cancel {
      background: hsl(var(--secondary, 210 40% 96%));
      color: hsl(var(--secondary-foreground, 222 47% 11%));
      border-color: hsl(var(--border, 0 0% 85%));
    }
  `,
  ];

  /** The answer of `POST /api/plugins/inspect` to show. */
  @property({ attribute: false }) accessor inspection: PackageInspection | null = null;

  /** Whether the dialog is shown (modal). Setting it opens or closes the dialog. */
  @property({ type: Boolean, reflect: true }) accessor open = false;

  /** Set by the launcher while it installs: shows progress and disables the buttons. */
  @property({ type: Boolean, reflect: true }) accessor busy = false;

  /** An install error message to show (empty for none). Shown as text. */
  @property() accessor error = '';

  @query('dialog') private accessor dialog: HTMLDialogElement | null = null;

  /** Where focus was before the dialog opened; focus goes back there on close. */
  private returnFocus: HTMLElement | null = null;

  /** Shows `inspection` in the modal dialog, clearing any earlier error and progress. */
  show(inspection: PackageInspection): void {
    this.inspection = inspection;
    this.error = '';
    this.busy = false;
    this.open = true;
  }

  /** Closes the dialog without firing an event (the launcher calls it after a successful install). */
  close(): void {
    this.open = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Remember the focus before the dialog takes it (willUpdate runs before rendering).
    if (changed.has('open') && this.open && !this.dialog?.open) this.returnFocus = deepActiveElement();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('open')) this.syncDialog();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) this.syncDialog();
  }

  private syncDialog(): void {
    const dialog = this.dialog;
    if (!dialog?.isConnected) return;
    if (this.open && !dialog.open) {
      dialog.showModal();
    } else if (!this.open && dialog.open) {
      dialog.close();
      this.restoreFocus();
    }
  }

  private restoreFocus(): void {
    const target = this.returnFocus;
    this.returnFocus = null;
    if (target?.isConnected) target.focus();
  }

  private fire(name: 'plugin-install-confirm' | 'plugin-install-cancel'): void {
    const manifest = this.inspection?.manifest;
    if (!manifest) return;
    this.dispatchEvent(new CustomEvent<PluginInstallDetail>(name, { detail: { manifest }, bubbles: true, composed: true }));
  }

  private onInstall(): void {
    if (this.busy || !this.inspection) return;
    this.fire('plugin-install-confirm');
  }

  private onCancel(): void {
    if (this.busy) return;
    this.open = false;
    this.fire('plugin-install-cancel');
  }

  /** Escape: the native `cancel` event. The element decides, so busy installs are not cut short. */
  private onNativeCancel(event: Event): void {
    event.preventDefault();
    this.onCancel();
  }

  /** The browser may close a modal dialog on its own (a repeated Escape); keep `open` in step. */
  private onNativeClose(): void {
    // The close event is queued: after close() and a quick show() the dialog is open again.
    if (!this.open || this.dialog?.open) return;
    this.open = false;
    this.restoreFocus();
    this.fire('plugin-install-cancel');
  }

  override render() {
    const inspection = this.inspection;
    return html`<dialog
      part="dialog"
      aria-labelledby="title"
      aria-describedby=${inspection ? 'risk-summary' : nothing}
      aria-busy=${this.busy ? 'true' : 'false'}
      @cancel=${this.onNativeCancel}
      @close=${this.onNativeClose}
      @keydown=${(event: KeyboardEvent) => keepFocusInDialog(event, event.currentTarget as HTMLElement)}
    >
      ${inspection ? this.renderContent(inspection) : html`<h2 id="title" part="title">Install plugin</h2>`}
      ${this.error ? html`<p class="error" part="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions" part="actions">
        ${this.busy ? html`<span class="progress" role="status">Installing…</span>` : nothing}
        <button class="cancel" part="cancel-button" type="button" autofocus ?disabled=${this.busy} @click=${this.onCancel}>
          Cancel
        </button>
        <button class="install" part="install-button" type="button" ?disabled=${this.busy || !inspection} @click=${this.onInstall}>
          ${this.busy ? 'Installing…' : 'Install'}
        </button>
      </div>
    </dialog>`;
  }

  private renderContent(inspection: PackageInspection) {
    const { manifest } = inspection;
    const risk = highestRisk(inspection);
    const installed = inspection.installedVersion;
    const unlisted = inspection.unlistedPermissions ?? [];
    return html`
      <h2 id="title" part="title">Install ${manifest.name}?</h2>
      ${manifest.description ? html`<p class="description">${manifest.description}</p>` : nothing}
      <dl part="details">
        <dt>Version</dt>
        <dd>${manifest.version}</dd>
        <dt>Plugin id</dt>
        <dd class="mono">${manifest.id}</dd>
        ${manifest.author ? html`<dt>Author</dt><dd>${manifest.author}</dd>` : nothing}
        ${
          inspection.source
            ? html`<dt>From</dt>
              <dd part="source">${hostOf(inspection.source)}${inspection.sourcePrimary === false ? ' (backup source)' : ''}</dd>`
            : nothing
        }
        ${
          installed
            ? html`<dt>Installed now</dt>
              <dd>Version ${installed}; installing replaces it.</dd>`
            : nothing
        }
      </dl>
      ${this.renderSigner(inspection)}
      <section class="risk" part="risk-summary" id="risk-summary" data-risk=${risk}>
        <p><strong>Overall risk:</strong> <span class="risk-badge">${riskBadgeContent(risk)}</span></p>
        <p>${RISK_SUMMARY[risk]}</p>
      </section>
      <h3>Permissions requested</h3>
      ${
        unlisted.length > 0
          ? html`<p class="unlisted-note" part="unlisted-note" role="note">
              <strong>${unlisted.length === 1 ? '1 permission was' : `${unlisted.length} permissions were`} not shown in the store listing.</strong>
              The package asks for more than the store said; install it only if you expected that.
            </p>`
          : nothing
      }
      <plugin-permission-list
        part="permissions"
        .permissions=${manifest.permissions ?? []}
        .unlisted=${unlisted}
        render-mode=${manifest.render ?? nothing}
      ></plugin-permission-list>
    `;
  }

  private renderSigner(inspection: PackageInspection) {
    const { signer, signatureStatus } = inspection;
    if (signatureStatus === 'valid' && signer) {
      return html`<section class="signer" part="signer" data-status="valid">
        <p>
          <strong>Signed by</strong>
          ${signer.developerId ? html`developer <strong>${signer.developerId}</strong>` : 'a developer key certified by the store'}
        </p>
        <p>Key id <span class="mono">${signer.keyId}</span></p>
      </section>`;
    }
    if (signatureStatus === 'invalid') {
      const reason = inspection.signatureProblem?.reason;
      return html`<section class="signer" part="signer" data-status="invalid" role="note">
        <p><strong>Warning: the signature of this package is not valid.</strong></p>
        <p>
          The package may have been changed after its developer signed it, or the signature was not made
          with a key the store certified. Do not install it unless you got it from its developer directly.
        </p>
        ${reason ? html`<p>Reason: ${reason}</p>` : nothing}
      </section>`;
    }
    return html`<section class="signer" part="signer" data-status="unsigned" role="note">
      <p><span class="shape" aria-hidden="true">!</span> <strong>Warning: this package is not signed.</strong></p>
      <p>Nobody has confirmed who made it or that it was not changed. Install it only if you trust where it came from.</p>
    </section>`;
  }
}
