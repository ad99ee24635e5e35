import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { LauncherSettings, RegistrySourceStatus } from '@plughost/host-sdk/core';
import { backendJson, messageOf, type LauncherBackendSource } from '../plugin-manager/backend-request.js';
import {
  draftOf,
  patchOf,
  readSettings,
  readSourceStatuses,
  sameDraft,
  sourceKey,
  sourceUrlProblem,
  validateDraft,
  type DraftErrors,
  type SettingsDraft,
} from './settings-model.js';
import { fieldProblem } from './field-problem.js';
import { settingsStyles } from './settings-styles.js';
import { renderSources } from './sources-view.js';

/** The tabs of the Settings page. */
export type LauncherSettingsTab = 'general' | 'plugins';

/** `detail` of `launcher-settings-saved`. */
export interface LauncherSettingsSavedDetail {
  /** The settings as the backend saved them. */
  readonly settings: LauncherSettings;
  /**
   * True when the list of sources changed: the launcher reloads its page, whose content security
   * policy lists the enabled sources' origins (decisions section 8).
   */
  readonly sourcesChanged: boolean;
}

/** What the telemetry switch sends, in the words the page shows. */
export const TELEMETRY_DESCRIPTION =
  'When a plugin fails to load or stops with an error, the launcher sends the plugin’s id and version, the type of error and the launcher’s version to your primary store; never personal data or file contents.';

const TABS: readonly { readonly id: LauncherSettingsTab; readonly label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'plugins', label: 'Plugins' },
];

type Load = { readonly status: 'idle' | 'loading' } | { readonly status: 'error'; readonly message: string } | { readonly status: 'ready' };

/**
 * The launcher's Settings page. **General**: the error-report switch (`telemetryEnabled`, off by
 * default) with one sentence on what is sent; the plugin sources (`registryUrl`) in priority
 * order, each with "Enabled", "Primary", "Up", "Down" and "Remove" and its live status from
 * `GET /api/registries` (in use, usable, not usable, API version, plugin count, last error), plus an
 * "Add" row; and how often the launcher checks for plugin updates (`updateCheckHours`). "Save"
 * checks the draft (one primary source; a whole number of hours from 1 to 168; a source address is
 * checked when it is added), sends `PATCH /api/launcher/settings` and shows the backend's message
 * when it refuses. "Retry sources" asks every source again (`POST /api/registries/retry`), as after
 * a primary was marked unavailable. **Plugins**: the launcher's `<plugin-settings-tab>`, put into the `plugins` slot.
 *
 * Give it `source` (the local backend's address and token); it reads
 * `GET /api/launcher/settings` and `GET /api/registries` itself when connected. Backend strings are
 * only ever set as text.
 *
 * Keyboard: the tab list is one Tab stop; Left/Right move between tabs, Home and End go to the first and last.
 *
 * @fires launcher-settings-saved - `CustomEvent<{settings: LauncherSettings, sourcesChanged: boolean}>`: the backend saved the settings; reload the page when `sourcesChanged`.
 * @slot plugins - The Plugins tab's content: the launcher's `<plugin-settings-tab>`.
 * @attr tab - The tab shown: `general` (default) or `plugins`.
 * @csspart tablist - The tab list.
 * @csspart tab - One tab (`data-tab`).
 * @csspart panel - A tab panel (`data-tab`).
 * @csspart loading - The text shown while the settings load.
 * @csspart load-error - The error box when the settings cannot be read, with `retry-button`.
 * @csspart retry-button - "Retry".
 * @csspart telemetry-switch - The error-report switch (`role="switch"`).
 * @csspart telemetry-description - The sentence on what is sent.
 * @csspart sources - The list of sources.
 * @csspart source - One source (`data-url`, `data-state` is `active`, `usable`, `unusable`, `disabled` or `unknown`).
 * @csspart source-url - Its address.
 * @csspart primary-badge - "Primary".
 * @csspart active-badge - "Active": the source the store reads from now.
 * @csspart source-status - Its status line (`data-state`).
 * @csspart source-facts - API version and plugin count.
 * @csspart source-error - The last error the backend met with it.
 * @csspart source-enabled - Its "Enabled" checkbox.
 * @csspart source-primary - Its "Primary" radio button.
 * @csspart move-up-button - "Up".
 * @csspart move-down-button - "Down".
 * @csspart remove-button - "Remove".
 * @csspart no-sources - Shown when the list is empty.
 * @csspart sources-error - The list's validation message.
 * @csspart status-error - Shown when `GET /api/registries` failed.
 * @csspart add-source-input - The address of a source to add.
 * @csspart add-source-button - "Add".
 * @csspart add-source-error - Why the address cannot be added.
 * @csspart retry-sources-button - "Retry sources" (`POST /api/registries/retry`: forgets timeouts and asks every source again).
 * @csspart update-interval - The hours between update checks.
 * @csspart interval-error - The interval's validation message.
 * @csspart save-button - "Save".
 * @csspart discard-button - "Discard changes".
 * @csspart save-status - "Saved." after a save (a polite live region).
 * @csspart save-error - The backend's message when it refused to save.
 * @cssprop --foreground - Text (theme token, `H S% L%`).
 * @cssprop --card - Section background (theme token).
 * @cssprop --card-foreground - Section text (theme token).
 * @cssprop --border - Borders (theme token).
 * @cssprop --muted-foreground - Secondary text (theme token).
 * @cssprop --primary - Selected tab, switch on, "Save", active source (theme token).
 * @cssprop --primary-foreground - Text on primary (theme token).
 * @cssprop --secondary - Buttons and badges (theme token).
 * @cssprop --secondary-foreground - Text on secondary (theme token).
 * @cssprop --input - Input borders, switch off (theme token).
 * @cssprop --background - Inputs and the switch thumb (theme token).
 * @cssprop --destructive - Errors and unusable sources (theme token).
 * @cssprop --ring - Focus ring (theme token).
 *
 * @tagname launcher-settings-page
 */
export class LauncherSettingsPage extends LitElement {
  static override styles = settingsStyles;

  /** The local backend (address and token). Setting it loads the settings again. */
  @property({ attribute: false }) accessor source: LauncherBackendSource | undefined;

  /** The tab shown. */
  @property({ reflect: true }) accessor tab: LauncherSettingsTab = 'general';

  @state() private accessor load: Load = { status: 'idle' };
  @state() private accessor saved: LauncherSettings | null = null;
  @state() private accessor draft: SettingsDraft | null = null;
  @state() private accessor statuses: readonly RegistrySourceStatus[] | null = null;
  @state() private accessor statusError: string | null = null;
  @state() private accessor addText = '';
  @state() private accessor addError: string | null = null;
  /** Shown after the first "Save" of a draft with problems, and kept up to date while it is edited. */
  @state() private accessor errors: DraftErrors | null = null;
  @state() private accessor saving = false;
  @state() private accessor saveError: string | null = null;
  @state() private accessor savedNotice = false;
  @state() private accessor retrying = false;

  #loadRequest: AbortController | null = null;
  #statusRequest: AbortController | null = null;

  /** The settings as last read or saved, or null before they loaded. */
  get settings(): LauncherSettings | null {
    return this.saved;
  }

  /** True when the draft differs from the saved settings. */
  get dirty(): boolean {
    return this.saved !== null && this.draft !== null && !sameDraft(draftOf(this.saved), this.draft);
  }

  /** Reads the settings and the sources' status again, dropping unsaved changes. */
  reload(): void {
    this.#loadRequest?.abort();
    const source = this.source;
    if (!source) {
      this.load = { status: 'idle' };
      return;
    }
    const controller = new AbortController();
    this.#loadRequest = controller;
    this.load = { status: 'loading' };
    backendJson(source, '/api/launcher/settings', { signal: controller.signal }).then(
      (body) => {
        if (controller.signal.aborted) return;
        try {
          this.#takeSaved(readSettings(body));
          this.load = { status: 'ready' };
        } catch (error) {
          this.load = { status: 'error', message: messageOf(error) };
        }
      },
      (error: unknown) => {
        if (!controller.signal.aborted) this.load = { status: 'error', message: messageOf(error) };
      },
    );
    this.refreshStatus();
  }

  /** Reads `GET /api/registries` again. */
  refreshStatus(): void {
    this.#statusRequest?.abort();
    const source = this.source;
    if (!source) return;
    const controller = new AbortController();
    this.#statusRequest = controller;
    backendJson(source, '/api/registries', { signal: controller.signal }).then(
      (body) => {
        if (controller.signal.aborted) return;
        try {
          this.statuses = readSourceStatuses(body);
          this.statusError = null;
        } catch (error) {
          this.statusError = messageOf(error);
        }
      },
      (error: unknown) => {
        if (!controller.signal.aborted) this.statusError = messageOf(error);
      },
    );
  }

  /**
   * "Retry sources": `POST /api/registries/retry`, which forgets timeouts and a primary marked
   * unavailable, asks every source again and answers their new status.
   */
  async retrySources(): Promise<void> {
    const source = this.source;
    if (!source || this.retrying) return;
    this.#statusRequest?.abort();
    this.retrying = true;
    try {
      this.statuses = readSourceStatuses(await backendJson(source, '/api/registries/retry', { method: 'POST' }));
      this.statusError = null;
    } catch (error) {
      this.statusError = messageOf(error);
    } finally {
      this.retrying = false;
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A request cut short by leaving the page runs again on return.
    if (this.hasUpdated && this.source && this.load.status !== 'ready') this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#loadRequest?.abort();
    this.#statusRequest?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('source')) this.reload();
  }

  #takeSaved(settings: LauncherSettings): void {
    this.saved = settings;
    this.draft = draftOf(settings);
    this.errors = null;
    this.saveError = null;
  }

  #edit(change: (draft: SettingsDraft) => SettingsDraft): void {
    if (!this.draft) return;
    this.draft = change(this.draft);
    this.savedNotice = false;
    if (this.errors) this.errors = validateDraft(this.draft);
  }

  #editSources(change: (sources: SettingsDraft['sources'][number][]) => void): void {
    this.#edit((draft) => {
      const sources = [...draft.sources];
      change(sources);
      return { ...draft, sources };
    });
  }

  #move(index: number, by: -1 | 1): void {
    this.#editSources((sources) => {
      const target = index + by;
      const moved = sources[index];
      const other = sources[target];
      if (!moved || !other) return;
      sources[target] = moved;
      sources[index] = other;
    });
    // Keep focus on the same button of the moved source, unless it became disabled.
    void this.updateComplete.then(() => {
      const part = by < 0 ? 'move-up-button' : 'move-down-button';
      const row = this.renderRoot.querySelectorAll<HTMLElement>('[part~="source"]')[index + by];
      const button = row?.querySelector<HTMLButtonElement>(`[part~="${part}"]`);
      (button && !button.disabled ? button : row?.querySelector<HTMLButtonElement>('[part~="remove-button"]'))?.focus();
    });
  }

  #add(): void {
    if (!this.draft) return;
    const problem = sourceUrlProblem(this.addText, this.draft.sources);
    this.addError = problem;
    if (problem) return;
    const url = this.addText.trim();
    // The first source becomes the primary; later ones are backups.
    this.#editSources((sources) => sources.push({ url, primary: sources.length === 0, enabled: true }));
    this.addText = '';
  }

  async #save(event?: Event): Promise<void> {
    event?.preventDefault();
    const source = this.source;
    const draft = this.draft;
    const saved = this.saved;
    if (!source || !draft || !saved || this.saving) return;
    const errors = validateDraft(draft);
    this.errors = errors;
    if (errors.sources || errors.updateCheckHours) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(errors.sources ? '[part~="source-primary"]' : '[part~="update-interval"]')?.focus();
      return;
    }
    const patch = patchOf(draft);
    this.saving = true;
    this.saveError = null;
    try {
      const body = await backendJson(source, '/api/launcher/settings', { method: 'PATCH', json: patch });
      let settings: LauncherSettings;
      try {
        settings = readSettings(body);
      } catch {
        // An answer without the settings: what was sent is what is saved.
        settings = { installationId: saved.installationId, ...patch };
      }
      const sourcesChanged =
        JSON.stringify(saved.registryUrl.map((entry) => [sourceKey(entry.url), entry.enabled])) !==
        JSON.stringify(settings.registryUrl.map((entry) => [sourceKey(entry.url), entry.enabled]));
      this.#takeSaved(settings);
      this.savedNotice = true;
      this.refreshStatus();
      const detail: LauncherSettingsSavedDetail = { settings, sourcesChanged };
      this.dispatchEvent(new CustomEvent<LauncherSettingsSavedDetail>('launcher-settings-saved', { detail, bubbles: true, composed: true }));
    } catch (error) {
      this.saveError = messageOf(error);
    } finally {
      this.saving = false;
    }
  }

  #discard(): void {
    if (this.saved) this.#takeSaved(this.saved);
    this.addText = '';
    this.addError = null;
    this.savedNotice = false;
  }

  #onTabKeydown(event: KeyboardEvent): void {
    const index = TABS.findIndex((tab) => tab.id === this.tab);
    let next: number;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (index + 1) % TABS.length;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = (index - 1 + TABS.length) % TABS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = TABS.length - 1;
    else return;
    event.preventDefault();
    const tab = TABS[next];
    if (!tab) return;
    this.tab = tab.id;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[role="tab"][data-tab="${tab.id}"]`)?.focus());
  }

  override render() {
    const current = TABS.some((tab) => tab.id === this.tab) ? this.tab : 'general';
    return html`<div role="tablist" part="tablist" aria-label="Settings" @keydown=${(event: KeyboardEvent) => this.#onTabKeydown(event)}>
        ${TABS.map(
          (tab) => html`<button
            type="button"
            role="tab"
            part="tab"
            id="tab-${tab.id}"
            data-tab=${tab.id}
            aria-selected=${tab.id === current ? 'true' : 'false'}
            aria-controls="panel-${tab.id}"
            tabindex=${tab.id === current ? '0' : '-1'}
            @click=${() => (this.tab = tab.id)}
          >
            ${tab.label}
          </button>`,
        )}
      </div>
      <div role="tabpanel" part="panel" id="panel-general" data-tab="general" aria-labelledby="tab-general" ?hidden=${current !== 'general'}>
        ${this.#renderGeneral()}
      </div>
      <div role="tabpanel" part="panel" id="panel-plugins" data-tab="plugins" aria-labelledby="tab-plugins" ?hidden=${current !== 'plugins'}>
        <slot name="plugins"><p class="hint">No plugin has settings to change.</p></slot>
      </div>`;
  }

  #renderGeneral() {
    const load = this.load;
    if (load.status === 'error') {
      return html`<div class="problem" part="load-error" role="alert">
        <p>The launcher settings could not be read: ${load.message}</p>
        <button type="button" part="retry-button" @click=${() => this.reload()}>Retry</button>
      </div>`;
    }
    const draft = this.draft;
    if (load.status !== 'ready' || !draft) {
      return html`<p class="loading" part="loading" role="status">${this.source ? 'Loading settings…' : 'No launcher backend is set.'}</p>`;
    }
    const errors = this.errors ?? {};
    const interval = fieldProblem('interval-error', errors.updateCheckHours);
    const disabled = this.saving;
    return html`<form novalidate @submit=${(event: Event) => void this.#save(event)}>
      <fieldset>
        <legend>Error reports</legend>
        <div class="switch-row">
          <button
            type="button"
            role="switch"
            part="telemetry-switch"
            aria-checked=${draft.telemetryEnabled ? 'true' : 'false'}
            aria-labelledby="telemetry-label"
            aria-describedby="telemetry-description"
            ?disabled=${disabled}
            @click=${() => this.#edit((current) => ({ ...current, telemetryEnabled: !current.telemetryEnabled }))}
          ></button>
          <span id="telemetry-label">Send plugin error reports to the store</span>
        </div>
        <p class="hint" id="telemetry-description" part="telemetry-description">${TELEMETRY_DESCRIPTION}</p>
      </fieldset>
      <fieldset>
        <legend>Plugin sources</legend>
        ${renderSources({
          sources: draft.sources,
          statuses: this.statuses,
          statusError: this.statusError,
          addText: this.addText,
          addError: this.addError,
          error: errors.sources,
          disabled,
          move: (index, by) => this.#move(index, by),
          remove: (index) => this.#editSources((sources) => sources.splice(index, 1)),
          setEnabled: (index, enabled) =>
            this.#editSources((sources) => {
              const entry = sources[index];
              if (entry) sources[index] = { ...entry, enabled };
            }),
          setPrimary: (index) =>
            this.#editSources((sources) => {
              for (const [position, entry] of sources.entries()) sources[position] = { ...entry, primary: position === index };
            }),
          addInput: (text) => {
            this.addText = text;
            this.addError = null;
          },
          add: () => this.#add(),
          retry: () => void this.retrySources(),
          retrying: this.retrying,
        })}
      </fieldset>
      <fieldset>
        <legend>Updates</legend>
        <label
          >Check for plugin updates every
          <input
            type="number"
            part="update-interval"
            min="1"
            step="1"
            inputmode="numeric"
            aria-invalid=${interval.invalid}
            aria-describedby=${interval.describedBy}
            .value=${draft.updateCheckHours}
            ?disabled=${disabled}
            @input=${(event: Event) => this.#edit((current) => ({ ...current, updateCheckHours: (event.target as HTMLInputElement).value }))}
          />
          hours</label
        >
        ${interval.message}
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary" part="save-button" ?disabled=${disabled || !this.dirty}>${this.saving ? 'Saving…' : 'Save'}</button>
        <button type="button" part="discard-button" ?disabled=${disabled || !this.dirty} @click=${() => this.#discard()}>Discard changes</button>
        <span part="save-status" role="status">${this.savedNotice ? 'Saved.' : ''}</span>
      </div>
      ${this.saveError ? html`<p class="problem" part="save-error" role="alert">The settings were not saved: ${this.saveError}</p>` : nothing}
    </form>`;
  }
}

declare global {
  interface HTMLElementEventMap {
    'launcher-settings-saved': CustomEvent<LauncherSettingsSavedDetail>;
  }
}
