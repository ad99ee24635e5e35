/**
 * The two steps of a store install (decisions section 12), as `<plugin-store>` runs them when it
 * has the launcher's backend: `POST /api/plugins/store-inspect` downloads and checks the package,
 * the install dialog shows what the package itself says (never the listing), and only the user's
 * "Install" sends `POST /api/plugins/store-install` with the package's SHA-256 and consent to
 * exactly what the dialog showed.
 */
import { html, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { PluginInfo } from '@plughost/host-sdk/core';
import type { PackageInspection, PluginInstallDialog } from '../plugin-install-dialog.js';
import { backendJson, BackendRequestError, messageOf, type LauncherBackendSource } from '../plugin-manager/backend-request.js';

/** The answer of `POST /api/plugins/store-inspect`: the dialog's inspection plus the digest to install. */
export interface StorePackageInspection extends PackageInspection {
  readonly sha256: string;
  readonly unsigned: boolean;
}

/** What the flow was asked to install. */
export interface StoreInstallTarget {
  readonly slug: string;
  readonly id: string;
  readonly version: string;
}

/** What the flow tells its element. */
export interface StoreInstallFlowEvents {
  /** The backend of the launcher, at the time of the click. */
  backend(): LauncherBackendSource | undefined;
  /** Whether the install enables the plugin (at the next restart). */
  enables(): boolean;
  installed(target: StoreInstallTarget, plugin: PluginInfo): void;
  failed(target: StoreInstallTarget, code: string, message: string): void;
}

interface Offer {
  readonly target: StoreInstallTarget;
  readonly backend: LauncherBackendSource;
  readonly inspection: StorePackageInspection;
}

/** Runs store installs for an element and renders their install dialog. */
export class StoreInstallFlow {
  readonly #busy = new Set<string>();
  readonly #problems = new Map<string, string>();
  #offer: Offer | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { readonly renderRoot: ParentNode },
    private readonly events: StoreInstallFlowEvents,
  ) {}

  /** The slugs being inspected or installed now (their buttons say "Installing…"). */
  busySlugs(): readonly string[] {
    return [...this.#busy];
  }

  /** Why the last install of `slug` failed, for the line under its button. */
  problem(slug: string): string | undefined {
    return this.#problems.get(slug);
  }

  /** Step one: downloads and inspects the package, then opens the install dialog built from it. */
  async start(target: StoreInstallTarget): Promise<void> {
    const backend = this.events.backend();
    if (!backend || this.#busy.has(target.slug)) return;
    this.#busy.add(target.slug);
    this.#problems.delete(target.slug);
    this.host.requestUpdate();
    let inspection: StorePackageInspection;
    try {
      inspection = await backendJson<StorePackageInspection>(backend, '/api/plugins/store-inspect', { json: { slug: target.slug, version: target.version } });
    } catch (error) {
      this.#fail(target, error);
      return;
    }
    this.#offer = { target, backend, inspection };
    await this.host.updateComplete;
    this.#dialog()?.show(inspection);
  }

  #dialog(): PluginInstallDialog | null {
    return this.host.renderRoot.querySelector('plugin-install-dialog');
  }

  #fail(target: StoreInstallTarget, error: unknown): void {
    this.#busy.delete(target.slug);
    const message = messageOf(error);
    this.#problems.set(target.slug, message);
    this.host.requestUpdate();
    this.events.failed(target, error instanceof BackendRequestError ? error.code : 'INTERNAL_ERROR', message);
  }

  /** Step two: the user's "Install" installs exactly the inspected bytes with consent to what the dialog showed. */
  async #confirm(event: Event): Promise<void> {
    // The dialog's own events stay inside the store: the launcher hears `plugin-store-installed`.
    event.stopPropagation();
    const offer = this.#offer;
    const dialog = this.#dialog();
    if (!offer || !dialog) return;
    const { target, backend, inspection } = offer;
    dialog.busy = true;
    dialog.error = '';
    try {
      const plugin = await backendJson<PluginInfo>(backend, '/api/plugins/store-install', {
        json: {
          slug: target.slug,
          version: inspection.manifest.version,
          sha256: inspection.sha256,
          acceptPermissions: inspection.permissions.map((permission) => permission.id),
          ...(inspection.unsigned ? { allowUnsigned: true } : {}),
          enable: this.events.enables(),
        },
      });
      this.#offer = undefined;
      this.#busy.delete(target.slug);
      dialog.close();
      this.host.requestUpdate();
      this.events.installed(target, plugin);
    } catch (error) {
      dialog.error = messageOf(error);
      this.events.failed(target, error instanceof BackendRequestError ? error.code : 'INTERNAL_ERROR', messageOf(error));
    } finally {
      dialog.busy = false;
    }
  }

  #cancel(event: Event): void {
    event.stopPropagation();
    const offer = this.#offer;
    this.#offer = undefined;
    if (offer) this.#busy.delete(offer.target.slug);
    this.host.requestUpdate();
  }

  /** The install dialog, in the element's shadow root. */
  render(): TemplateResult {
    return html`<plugin-install-dialog
      part="install-dialog"
      @plugin-install-confirm=${(event: Event) => void this.#confirm(event)}
      @plugin-install-cancel=${(event: Event) => this.#cancel(event)}
    ></plugin-install-dialog>`;
  }
}
